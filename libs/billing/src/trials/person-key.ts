import { createHash } from 'node:crypto';

/** Domains whose mailboxes ignore dots in the local part; googlemail.com is the same mailbox as gmail.com. */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
]);

/**
 * The mailbox an address reaches, so that the spellings one person can register with count as one: lower
 * case, without a `+tag`, and without dots where the provider ignores them (Gmail). Anything that is not an
 * address is only trimmed and lower-cased.
 */
export function normaliseEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.+$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless) {
    domain = dotless;
    local = local.replaceAll('.', '') || local;
  }
  return `${local}@${domain}`;
}

/** The key a taken trial is kept under: a hash of the normalised address (billing keeps no addresses). */
export function personKeyOf(email: string): string {
  return createHash('sha256').update(normaliseEmail(email)).digest('hex');
}
