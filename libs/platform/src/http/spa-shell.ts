/**
 * The built SPA's index.html, for HTTP modules whose routes share paths with the SPA (e.g. `/{slug}`
 * public pages next to `/dashboard`): such a route answers the shell when the path is the SPA's.
 * The gateway provides it; without a built SPA, `html()` is undefined.
 */
export abstract class SpaShell {
  abstract html(): string | undefined;
}
