import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { AppConfig } from '@plink/config';
import { consentStatement } from '@plink/page-render';
import type { PublicPageDto } from '@plink/contracts';

/** A lead's proof of how it was given, as the capture writes it beside the lead (see the 20261207 migration). */
export interface LeadEvidence {
  /** The page showed its consent checkbox (false: the creator hid it, and no consent text was shown). */
  consentShown: boolean;
  /** SHA-256 (hex) of the consent text shown, or null when none was. */
  consentVersion: string | null;
  /** The privacy link beside that text, as an absolute URL, or null when none was shown. */
  privacyUrl: string | null;
  /** The visitor's address as the app resolves it behind the trusted proxies (LEAD_EVIDENCE=full only). */
  signupIp: string | null;
  /** The visitor's user agent, cut to {@link USER_AGENT_MAX} characters (LEAD_EVIDENCE=full only). */
  signupUserAgent: string | null;
}

/** What a lead's evidence is made of, besides the page: the visitor as the request shows them. */
export interface Visitor {
  /** `request.ip` (TRUST_PROXY decides which hop it is), the address rate limits count. */
  ip: string;
  userAgent?: string | undefined;
}

export const USER_AGENT_MAX = 512;

/** The version of a consent text: the SHA-256 of its exact words (UTF-8), in hex. */
export function consentVersionOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The consent text a page shows and its version, computed once per distinct text (there are very few). */
const versions = new Map<string, string>();
function versionOf(text: string): string {
  let version = versions.get(text);
  if (!version) {
    version = consentVersionOf(text);
    versions.set(text, version);
  }
  return version;
}

/**
 * The evidence of a sign-up on `page`: the consent text the page shows (the renderer's own
 * {@link consentStatement}, so it is the label the visitor read), its privacy link resolved against the
 * landing pages' origin, and with LEAD_EVIDENCE=full the visitor's IP address and user agent. Answers the
 * text too, for the versions table.
 */
export function evidenceOf(
  page: Pick<PublicPageDto, 'hidePrivacyPolicyCheckbox'> & Partial<Pick<PublicPageDto, 'privacyPolicyUrl' | 'controllerName'>>,
  visitor: Visitor,
  config: Pick<AppConfig, 'leadEvidence' | 'publicOrigin'>,
): { evidence: LeadEvidence; consentText: string | null } {
  const statement = consentStatement(page);
  const full = config.leadEvidence === 'full';
  const userAgent = visitor.userAgent?.trim();
  return {
    consentText: statement?.text ?? null,
    evidence: {
      consentShown: statement !== null,
      consentVersion: statement ? versionOf(statement.text) : null,
      privacyUrl: statement ? new URL(statement.privacyHref, `${config.publicOrigin}/`).href : null,
      // Fastify's address is an IP unless a proxy header held something else: only an IP is kept.
      signupIp: full && isIP(visitor.ip) ? visitor.ip : null,
      signupUserAgent: full && userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    },
  };
}
