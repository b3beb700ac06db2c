/** A tiny browser stand-in: fetch with a cookie jar, JSON in and out. */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly origin: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** Adds the cookies of a Cookie header (`a=b; c=d`) to the jar, as if a response had set them. */
  setCookies(header: string): this {
    for (const pair of header.split(';')) {
      const [name, value] = pair.split('=');
      if (name?.trim() && value) this.cookies.set(name.trim(), value.trim());
    }
    return this;
  }

  /** The Cookie header this client sends (for hand-made requests). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any; text: string; headers: Headers }> {
    const all: Record<string, string> = { ...this.defaultHeaders, ...headers };
    if (this.cookies.size > 0) all.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const init: RequestInit = { method, headers: all };
    if (body instanceof FormData) {
      init.body = body; // multipart: fetch writes the content type with its boundary
    } else if (body !== undefined) {
      all['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(this.origin + path, init);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value) this.cookies.set(name.trim(), value);
      else this.cookies.delete(name.trim());
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }
}

/**
 * Starts a test app listening on a free loopback port and answers its origin (`http://127.0.0.1:<port>`),
 * the address its TestClient talks to.
 */
export async function listenOnLoopback(app: { listen(options: { port: number; host: string }): Promise<unknown>; getUrl(): Promise<string> }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}
