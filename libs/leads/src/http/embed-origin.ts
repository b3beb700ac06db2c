import type { AppConfig } from '@plink/config';

const ownOrigins = new WeakMap<AppConfig, Set<string>>();

/**
 * The host name of the other site a submission was sent from, or undefined when it came from Plink itself (the
 * app's or the landing pages' origin), a sandboxed page (`null`) or no browser page at all (no Origin).
 */
export function embeddingHost(origin: string | undefined, config: AppConfig): string | undefined {
  if (origin === undefined || origin === 'null') return undefined;
  let own = ownOrigins.get(config);
  if (!own) ownOrigins.set(config, (own = new Set([new URL(config.appOrigin).origin, new URL(config.publicOrigin).origin])));
  if (own.has(origin)) return undefined;
  try {
    return new URL(origin).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** The origin of a Referer (`https://blog.example`), or undefined. */
export function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
