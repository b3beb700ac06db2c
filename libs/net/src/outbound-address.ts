import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The outbound address rule for connections a user chooses the target of (webhooks): never to this machine,
 * the private network it sits in, the cloud's metadata service or any other inward address. Judged on the
 * address actually connected to: the host is resolved once and the connection goes to the checked address,
 * so a DNS answer that changes between the check and the connection (rebinding) cannot slip through.
 *
 * Why not request-filtering-agent: it only comes as an http(s).Agent, and the same rule must also judge a URL
 * when it is saved (resolve, then answer 400 with a clear message), which that package cannot do without
 * reaching into its internals; two rules (its ranges on send, others on save) could disagree. So the ranges
 * are listed here once, on Node's own net.BlockList, and used by both: {@link checkOutboundUrl} on save and
 * {@link guardedLookup} (plus {@link isBlockedAddress} for IP literals) on every connection.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT: reaches the IPv4 address in its last 32 bits)
  ['64:ff9b::', 96], // NAT64 (reaches IPv4 addresses, private ones included)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/**
 * IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`), refused whatever they map to. Apart from BLOCKED because a
 * BlockList matches every IPv4 address against an IPv6 rule covering this range.
 */
const MAPPED = new BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** Whether an IP address (v4 or v6 text) is one webhooks must not connect to. Anything not an IP counts as blocked. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  return MAPPED.check(address, 'ipv6') || BLOCKED.check(address, 'ipv6');
}

/** The error of a connection refused by the rule; its message is what the delivery log shows. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(readonly address: string) {
    super(`blocked address (${address})`);
    this.name = 'BlockedAddressError';
  }
}

/** Resolves like `dns.lookup` (all addresses); replaceable in tests by a stub resolver. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export interface OutboundRule {
  /** Lift the address rule (development and tests only: WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivate: boolean;
  resolver?: Resolver;
}

/** The URL's host without IPv6 brackets ('[::1]' → '::1'). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Only http: and https: URLs with a host, without user:password. */
export function isWebhookScheme(url: URL): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && hostOf(url) !== '' && !url.username && !url.password;
}

export type UrlVerdict =
  | { ok: true; resolved: boolean }
  | { ok: false; reason: 'scheme' | 'blocked'; address?: string };

/**
 * The check made when a webhook URL is saved: the scheme and host, then the host resolved once; any address
 * that is inward refuses the URL. A host that does not resolve now is accepted (`resolved: false`): its
 * attempts will report the DNS error, and the rule is applied again at every connection.
 */
export async function checkOutboundUrl(raw: string, rule: OutboundRule): Promise<UrlVerdict> {
  if (!URL.canParse(raw)) return { ok: false, reason: 'scheme' };
  const url = new URL(raw);
  if (!isWebhookScheme(url)) return { ok: false, reason: 'scheme' };
  if (rule.allowPrivate) return { ok: true, resolved: true };
  const host = hostOf(url);
  if (isIP(host) !== 0) return isBlockedAddress(host) ? { ok: false, reason: 'blocked', address: host } : { ok: true, resolved: true };
  let addresses: LookupAddress[];
  try {
    addresses = await (rule.resolver ?? systemResolver)(host);
  } catch {
    return { ok: true, resolved: false };
  }
  const inward = addresses.find((a) => isBlockedAddress(a.address));
  if (inward) return { ok: false, reason: 'blocked', address: inward.address };
  return addresses.length > 0 ? { ok: true, resolved: true } : { ok: true, resolved: false };
}

/**
 * A `lookup` for `http.request`/`net.connect` that resolves once and hands the connection only a checked
 * address (the first one the resolver gives); an inward address fails the connection with
 * {@link BlockedAddressError}. IP literals never reach a lookup: check them with {@link isBlockedAddress} first.
 */
export function guardedLookup(rule: OutboundRule): LookupFunction {
  const resolver = rule.resolver ?? systemResolver;
  return (hostname: string, options: LookupOptions, callback: (...args: never[]) => void) => {
    const cb = callback as unknown as (err: Error | null, address?: string | LookupAddress[], family?: number) => void;
    resolver(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const chosen = wanted[0];
        if (!chosen) {
          cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
          return;
        }
        if (!rule.allowPrivate && isBlockedAddress(chosen.address)) {
          cb(new BlockedAddressError(chosen.address));
          return;
        }
        if (options.all) cb(null, [chosen]);
        else cb(null, chosen.address, chosen.family);
      },
      (err: Error) => cb(err),
    );
  };
}
