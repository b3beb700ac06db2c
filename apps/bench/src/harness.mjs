// Helpers the bench scripts (bench.mjs, ops-bench.mjs, lighthouse.mjs) share to drive a gateway they started.

/** Waits until `${url}/health` answers 200; fails early with the process's output if it exits first. */
export async function waitForHealth(url, child, output, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited:\n${output.join('')}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer from ${url}:\n${output.join('')}`);
}

/** A JSON call; throws on a non-2xx answer. Returns the parsed body and the session cookie it set, if any. */
export async function json(method, url, body, cookie) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return { body: text ? JSON.parse(text) : undefined, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

const tokens = new Map();

/**
 * The form token of a landing page, as a visitor's browser has it: the page is fetched (one view), its hidden
 * `formToken` read, and the call returns once the token is 2 s old (a token is good from 2 s to 2 h after the
 * page served it). One token serves every submission of a run: it is not single-use (see docs/security.md).
 */
export async function formToken(origin, slug) {
  const key = `${origin}/${slug}`;
  if (!tokens.has(key)) {
    const res = await fetch(`${origin}/${slug}`);
    const token = /name="formToken" value="([^"]+)"/.exec(await res.text())?.[1];
    if (!token) throw new Error(`GET /${slug} (${res.status}) carried no form token`);
    await new Promise((r) => setTimeout(r, 2_100));
    tokens.set(key, token);
  }
  return tokens.get(key);
}
