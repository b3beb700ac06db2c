import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate, type Scope } from './iml';

/** A Make request definition (connection, RPC, module, attach, detach): what this runner reads of it. */
interface RequestDefinition {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  qs?: Record<string, unknown>;
  body?: unknown;
  response?: {
    error?: { message?: string };
    iterate?: string;
    output?: unknown;
    data?: unknown;
    metadata?: unknown;
  };
}

export interface MakeCallResult {
  status: number;
  output?: unknown;
  data?: unknown;
  metadata?: unknown;
  /** What was sent, for the test to check the token went only to the right place. */
  request: { url: string; method: string; headers: Record<string, string> };
}

export const APP_DIR = join(__dirname, '../app');

/** A definition file of the app (the paths makecomapp.json names). */
export function definition<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(join(APP_DIR, file), 'utf8')) as T;
}

/**
 * Runs one request of the definition as Make does: IML evaluated against the scope (`connection`, `parameters`,
 * `webhook`), a relative URL joined to the base's `baseUrl`, the base's headers under the request's own, JSON body;
 * an error answer turned into the error message the definition gives, a success into `output` (per item with
 * `iterate`), `data` or `metadata`.
 */
export async function callMake(request: RequestDefinition, scope: Scope, base?: RequestDefinition & { baseUrl?: string }): Promise<MakeCallResult> {
  const relative = String(evaluate(request.url, scope));
  const url = base && relative.startsWith('/') ? `${String(evaluate(base.baseUrl, scope))}${relative}` : relative;
  const headers = {
    ...((evaluate(base?.headers ?? {}, scope) as Record<string, string>) ?? {}),
    ...((evaluate(request.headers ?? {}, scope) as Record<string, string>) ?? {}),
  };
  const target = new URL(url);
  for (const [key, value] of Object.entries((evaluate(request.qs ?? {}, scope) as Record<string, unknown>) ?? {})) {
    if (value !== undefined && value !== null && value !== '') target.searchParams.set(key, String(value));
  }
  const method = request.method ?? 'GET';
  const body = request.body === undefined ? undefined : JSON.stringify(evaluate(request.body, scope));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(target, { method, headers, body });
  const text = await answer.text();
  const parsed = text ? safeJson(text) : undefined;
  const sent = { url: target.toString(), method, headers };
  const responseScope = { ...scope, body: parsed, statusCode: answer.status, headers: Object.fromEntries(answer.headers) };

  if (answer.status >= 400) {
    const error = request.response?.error ?? base?.response?.error;
    const message = error?.message ? String(evaluate(error.message, responseScope)) : `HTTP ${answer.status}`;
    throw Object.assign(new Error(message), { status: answer.status });
  }
  const response = request.response ?? {};
  const result: MakeCallResult = { status: answer.status, request: sent };
  if (response.iterate !== undefined) {
    const items = evaluate(response.iterate, responseScope) as unknown[];
    result.output = items.map((item) => evaluate(response.output, { ...responseScope, item }));
  } else if (response.output !== undefined) {
    result.output = evaluate(response.output, responseScope);
  }
  if (response.data !== undefined) result.data = evaluate(response.data, responseScope);
  if (response.metadata !== undefined) result.metadata = evaluate(response.metadata, responseScope);
  return result;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
