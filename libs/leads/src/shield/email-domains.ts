import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { blacklist } from 'mailchecker';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { TtlCache } from '@plink/redis';

/** How long one DNS question may take; past it the address is accepted. */
export const DNS_TIMEOUT_MS = 1_500;
/** A domain's answer is kept this long (a popular domain costs one lookup per process per hour). */
const KNOWN_TTL_MS = 60 * 60_000;
/** A domain found without mail is asked again sooner (it may have just been set up). */
const NO_MAIL_TTL_MS = 5 * 60_000;
const MAX_DOMAINS = 20_000;

const THROWAWAY: ReadonlySet<string> = blacklist();

/** The domain of an address, lower-cased (what follows the last `@`). */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '');
}

/**
 * A throwaway domain, or a subdomain of one, by the maintained list of the `mailchecker` package (tens of
 * thousands of domains; updated with the package's version, pinned in package.json).
 */
export function isThrowawayDomain(domain: string): boolean {
  let current = domain;
  for (;;) {
    if (THROWAWAY.has(current)) return true;
    const dot = current.indexOf('.');
    if (dot === -1) return false;
    current = current.slice(dot + 1);
  }
}

/** What DNS says of a domain's mail: it has a place to deliver to, it has none, or it could not be told. */
export type MailAnswer = 'mail' | 'no-mail' | 'unknown';

/** The record exists (true), the name or the record type does not (false), or DNS failed (null). */
async function has(lookup: Promise<unknown[]>): Promise<boolean | null> {
  try {
    return (await lookup).length > 0;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // NXDOMAIN (ENOTFOUND) and "no record of that type" (ENODATA) are answers; anything else is a failure.
    return code === 'ENOTFOUND' || code === 'ENODATA' ? false : null;
  }
}

/**
 * Whether an e-mail domain can receive mail: an MX record, or (RFC 5321's fallback) an A or AAAA record.
 * The three questions go out together and the answer is due within {@link DNS_TIMEOUT_MS}; a timeout, or a
 * server failure that leaves the answer open, is 'unknown', which the caller accepts.
 */
export class MailDomainResolver {
  private readonly resolver: Resolver;

  constructor(servers: string[]) {
    // c-ares may give up on a silent server before its timeout, or try again past it: the deadline below is the rule.
    this.resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  async check(domain: string): Promise<MailAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'unknown'>((resolve) => {
      timer = setTimeout(() => resolve('unknown'), DNS_TIMEOUT_MS);
    });
    const answer = Promise.all([
      has(this.resolver.resolveMx(domain)),
      has(this.resolver.resolve4(domain)),
      has(this.resolver.resolve6(domain)),
    ]).then((found): MailAnswer => (found.includes(true) ? 'mail' : found.every((f) => f === false) ? 'no-mail' : 'unknown'));
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  cancel(): void {
    this.resolver.cancel();
  }
}

/** Why an address is refused by the domain checks, if it is. */
export type DomainRefusal = 'disposable' | 'noMx' | null;

/**
 * The bot shield's checks of an address's domain, on pages that refuse throwaway addresses: a throwaway
 * domain (always), and a domain that receives no mail (with EMAIL_MX_CHECK, through DNS_SERVERS or the
 * system's resolvers). DNS answers are kept in memory per process.
 */
@Injectable()
export class EmailDomainCheck {
  private readonly resolver?: MailDomainResolver;
  private readonly answers = new TtlCache<MailAnswer>(MAX_DOMAINS);

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.emailMxCheck) this.resolver = new MailDomainResolver(config.dnsServers);
  }

  async refusal(email: string): Promise<DomainRefusal> {
    const domain = domainOf(email);
    if (isThrowawayDomain(domain)) return 'disposable';
    if (!this.resolver) return null;
    let answer = this.answers.get(domain);
    if (answer === undefined) {
      answer = await this.resolver.check(domain);
      // 'unknown' is not kept: the next address of the domain asks again.
      if (answer !== 'unknown') this.answers.setIfCurrent(this.answers.current(), domain, answer, answer === 'mail' ? KNOWN_TTL_MS : NO_MAIL_TTL_MS);
    }
    return answer === 'no-mail' ? 'noMx' : null;
  }
}
