import { randomBytes } from 'node:crypto';

/**
 * The parts of Stripe's HTTP protocol the local test server shares between its endpoints: ids with
 * Stripe's prefixes, the error body `{ error: { type, message, code?, param? } }`, and the reading of
 * form parameters (booleans, integers, metadata, expand, lists) the way Stripe reads them.
 */

/** A Stripe JSON object (snake_case fields, exactly as the API answers it). */
export type StripeObject = Record<string, any>;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** An id like Stripe's: the prefix (`cus_`, `sub_`, `cs_test_`…) then random letters and digits. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (let i = 0; i < length; i += 1) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

/** An error Stripe would answer: the HTTP status and the `error` object of the body. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'api_error' | 'idempotency_error' | 'card_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  get body(): { error: StripeObject } {
    const error: StripeObject = { type: this.type, message: this.message };
    if (this.code) error.code = this.code;
    if (this.param) error.param = this.param;
    return { error };
  }

  /** Parameter errors are answered before the endpoint runs: Stripe does not keep them for an idempotency key. */
  get isParameterError(): boolean {
    return this.status === 400 && (this.code?.startsWith('parameter_') === true || this.code === 'url_invalid' || this.code === 'email_invalid');
  }
}

export function missingParam(param: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);
}

export function invalidParam(param: string, message: string, code = 'parameter_invalid'): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, code, param);
}

/** `No such customer: 'cus_…'`, answered with 404 for an id in the path and 400 for one in the parameters. */
export function noSuch(kind: string, id: string, param = 'id', status = 404): StripeApiError {
  return new StripeApiError(status, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);
}

/**
 * Rejects parameters the endpoint does not know, as Stripe does ("Received unknown parameter: …"). Stripe
 * parameters this server does not implement (`unsupported`) get their own message, so a test that needs one
 * says so instead of passing on a silently ignored parameter. `prefix` names nested parameters (`subscription_data`).
 */
export function checkKnownParams(params: StripeObject, known: readonly string[], unsupported: readonly string[] = [], prefix = ''): void {
  for (const key of Object.keys(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (unsupported.includes(key)) {
      throw new StripeApiError(400, 'invalid_request_error', `Received unknown parameter: ${name} (a Stripe parameter this test server does not implement)`, 'parameter_unknown', name);
    }
    if (!known.includes(key)) {
      throw new StripeApiError(400, 'invalid_request_error', `Received unknown parameter: ${name}`, 'parameter_unknown', name);
    }
  }
}

export function requireString(params: StripeObject, name: string, label = name): string {
  const value = params[name];
  if (value === undefined || value === '') throw missingParam(label);
  if (typeof value !== 'string') throw invalidParam(label, `Invalid string: ${label} must be a string.`);
  return value;
}

export function optionalString(params: StripeObject, name: string, label = name): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalidParam(label, `Invalid string: ${label} must be a string.`);
  return value;
}

export function parseBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw invalidParam(param, `Invalid boolean: ${String(value)}`, 'parameter_invalid_boolean');
}

export function parseInteger(value: unknown, param: string, min?: number, max?: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw invalidParam(param, `Invalid integer: ${text}`, 'parameter_invalid_integer');
  const n = Number(text);
  if (min !== undefined && n < min) throw invalidParam(param, `This value must be greater than or equal to ${min}.`, 'parameter_invalid_integer');
  if (max !== undefined && n > max) throw invalidParam(param, `This value must be less than or equal to ${max}.`, 'parameter_invalid_integer');
  return n;
}

export function parseUrl(value: unknown, param: string): string {
  if (typeof value !== 'string' || value === '') throw missingParam(param);
  try {
    const url = new URL(value.replace('{CHECKOUT_SESSION_ID}', 'x'));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw invalidParam(param, 'Not a valid URL', 'url_invalid');
  }
  return value;
}

export function parseEmail(value: unknown, param: string): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    throw invalidParam(param, `Invalid email address: ${String(value)}`, 'email_invalid');
  }
  return value;
}

/**
 * Stripe's metadata update: `metadata[key]=value` sets a key, `metadata[key]=` removes it, `metadata=` removes all.
 * Returns the new metadata (the old one when the parameter is absent).
 */
export function applyMetadata(current: Record<string, string>, value: unknown, param = 'metadata'): Record<string, string> {
  if (value === undefined) return current;
  if (value === '') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParam(param, 'Invalid object', 'parameter_invalid');
  }
  const next = { ...current };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key.length > 40) throw invalidParam(`${param}[${key}]`, 'Metadata keys can have up to 40 characters.');
    if (typeof v !== 'string') throw invalidParam(`${param}[${key}]`, 'Metadata values must be strings.');
    if (v === '') delete next[key];
    else if (v.length > 500) throw invalidParam(`${param}[${key}]`, 'Metadata values can have up to 500 characters.');
    else next[key] = v;
  }
  if (Object.keys(next).length > 50) throw invalidParam(param, 'You can have up to 50 metadata keys.');
  return next;
}

/** `expand[]=a&expand[]=b.c` (or `expand[0]=…`, as the SDK sends it) as a list of paths. */
export function expandPaths(params: StripeObject): string[] {
  const value = params.expand;
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [value];
  return list.map((v) => {
    if (typeof v !== 'string' || v === '') throw invalidParam('expand', 'Invalid array', 'parameter_invalid');
    return v;
  });
}

/**
 * A list answer `{ object: 'list', data, has_more, url }`, newest first like Stripe's lists, paged with
 * `limit` (1–100, default 10), `starting_after` and `ending_before` (ids of the list's items).
 */
export function listPage(items: StripeObject[], params: StripeObject, url: string): StripeObject {
  const limit = parseInteger(params.limit, 'limit', 1, 100) ?? 10;
  const newestFirst = [...items].reverse();
  let start = 0;
  let end = newestFirst.length;
  if (typeof params.starting_after === 'string' && params.starting_after !== '') {
    const at = newestFirst.findIndex((o) => o.id === params.starting_after);
    if (at < 0) throw invalidParam('starting_after', `No such object: '${params.starting_after}'`, 'resource_missing');
    start = at + 1;
  } else if (typeof params.ending_before === 'string' && params.ending_before !== '') {
    const at = newestFirst.findIndex((o) => o.id === params.ending_before);
    if (at < 0) throw invalidParam('ending_before', `No such object: '${params.ending_before}'`, 'resource_missing');
    end = at;
    start = Math.max(0, end - limit);
  }
  const data = newestFirst.slice(start, Math.min(end, start + limit));
  return { object: 'list', data, has_more: start + data.length < end, url };
}

/** The top-level fields whose value changed, with their old value: an event's `data.previous_attributes`. */
export function previousAttributes(before: StripeObject, after: StripeObject): StripeObject {
  const previous: StripeObject = {};
  for (const key of Object.keys(before)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}

export function snapshot<T>(value: T): T {
  return structuredClone(value);
}
