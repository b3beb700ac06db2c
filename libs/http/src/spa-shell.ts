/**
 * The built SPA's index.html, for HTTP modules whose routes share paths with the SPA (e.g. `/{slug}`
 * public pages next to `/dashboard`): such a route answers the shell when the path is the SPA's.
 * The gateway provides it; without a built SPA, `html()` is undefined.
 */
export abstract class SpaShell {
  abstract html(): string | undefined;

  /**
   * The document for an SPA path: the screen prerendered at build time (home, terms, privacy) when there is
   * one and the request carries no session cookie (signed-out visitors see it before any JavaScript runs),
   * else the shell. `cookieHeader` is the request's `Cookie` header.
   */
  htmlFor(_path: string, _cookieHeader: string | undefined): string | undefined {
    return this.html();
  }
}
