import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random URL-safe token of `bytes` bytes (default 32 = 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What is stored for a token: its SHA-256, never the token itself. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

function keyFor(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\0${secret}`).digest();
}

/**
 * HMAC-SHA256 of `value` (hex, 64 characters) under a key derived from the platform secret for `purpose`:
 * equal values give equal hashes, yet without the secret nobody can test a guess against one (a plain hash
 * of an e-mail address is undone by hashing a list of addresses).
 */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', keyFor(secret, purpose)).update(value, 'utf8').digest('hex');
}

/**
 * Seals a short secret (a token travelling inside a job) with AES-256-GCM under a key derived
 * from the platform secret, so neither the outbox table nor Redis holds it in the clear.
 */
export function seal(secret: string, plain: string, purpose = 'job-secret'): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** Opens what {@link seal} made; throws when it was tampered with or sealed under another secret. */
export function unseal(secret: string, sealed: string, purpose = 'job-secret'): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** A Standard Webhooks secret (`whsec_` and 24 random bytes in base64): a page webhook's and a hook subscription's alike. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
