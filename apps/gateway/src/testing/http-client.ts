import { withVisitorToken } from './form-tokens';

/**
 * A tiny browser stand-in for tests: fetch with a cookie jar, JSON in and out. A visitor's submission
 * (`POST /api/page/{slug}/submit`) carries the page's form token as the page's script sends it (see
 * withVisitorToken), unless the test sets `formToken` in the body itself.
 */
export class TestBrowser {
  private cookies = new Map<string, string>();
  lastSetCookie: string[] = [];

  constructor(private readonly origin: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.cookies.size > 0) (init.headers as Record<string, string>).cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method === 'POST') body = await withVisitorToken(this.origin, path, body);
    if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(this.origin + path, init);
    this.lastSetCookie = response.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair, ...attrs] = line.split(';');
      const [name, value] = pair.split('=');
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
}
