/**
 * What one visit tells about where it came from, read from the request alone (no cookie, nothing stored):
 * the referrer's domain, the campaign values of the page address's query and the device class of the user
 * agent. Every function here is cheap enough for the landing page's fast path (no URL object unless a
 * value is there to read).
 */

export type DeviceClass = 'desktop' | 'phone' | 'tablet';

/** The kinds of source counted per page and day (the `kind` column of `pages.page_sources`). */
export const SOURCE_KINDS = ['referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'device'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Longest value kept (a longer referrer domain or UTM value is cut). */
export const SOURCE_VALUE_MAX = 100;

/** The campaign values a page address's query may carry. */
export interface CampaignValues {
  ref?: string;
  source?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

const TABLET = /ipad|tablet|kindle|silk|playbook|nexus (7|9|10)|sm-t\d|(android(?!.*mobile))/i;
const PHONE = /mobi|iphone|ipod|android.*mobile|windows phone|blackberry|opera mini|iemobile/i;

/**
 * Desktop, phone or tablet, as the user agent says (the common markers: "Mobi", iPhone, iPad, Android
 * without "Mobile" for tablets). An iPad that presents itself as a Mac is counted as desktop.
 */
export function deviceClass(userAgent: string | undefined): DeviceClass {
  if (!userAgent) return 'desktop';
  if (TABLET.test(userAgent)) return 'tablet';
  if (PHONE.test(userAgent)) return 'phone';
  return 'desktop';
}

function clean(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  // eslint-disable-next-line no-control-regex
  const v = value.replace(/[\u0000-\u001f\u007f]/g, '').trim().toLowerCase().slice(0, SOURCE_VALUE_MAX);
  return v === '' ? undefined : v;
}

/**
 * The referrer's host name (without "www."), or undefined for none, an address that is not http(s) or a
 * link from the page's own host (`ownHosts`: the landing pages' host and the app's).
 */
export function referrerDomain(referer: string | undefined, ownHosts: readonly string[]): string | undefined {
  if (!referer || referer.length > 2_048) return undefined;
  let host: string;
  try {
    const url = new URL(referer);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    host = url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === '' || ownHosts.includes(host)) return undefined;
  return clean(host.startsWith('www.') ? host.slice(4) : host);
}

/** The `ref`, `source` and `utm_*` values of an address's query (lower-cased, trimmed, cut to 100 characters). */
export function campaignOf(url: string | undefined): CampaignValues {
  const at = url ? url.indexOf('?') : -1;
  if (!url || at === -1) return {};
  const query = url.slice(at + 1);
  if (!/(?:^|&)(?:ref|source|utm_source|utm_medium|utm_campaign)=/.test(query)) return {};
  const params = new URLSearchParams(query.length > 2_048 ? query.slice(0, 2_048) : query);
  const values: CampaignValues = {};
  const set = (key: keyof CampaignValues, name: string) => {
    const v = clean(params.get(name));
    if (v !== undefined) values[key] = v;
  };
  set('ref', 'ref');
  set('source', 'source');
  set('utmSource', 'utm_source');
  set('utmMedium', 'utm_medium');
  set('utmCampaign', 'utm_campaign');
  return values;
}

/** The UTC day of a moment, as `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Where a lead came from, as it arrived (each value null when the visit did not tell; the device too when
 * there was no visit, as for a lead an automation tool sent).
 */
export interface VisitSource {
  referrer: string | null;
  ref: string | null;
  source: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  device: DeviceClass | null;
}

/**
 * A sign-up's source: the referrer's domain (`referer`, not one of `ownHosts`), the campaign values of the
 * page address's `query` (`?ref=…&utm_source=…`, or a whole address) and the device class of `userAgent`.
 */
export function visitSourceOf(input: { referer?: string; query?: string; userAgent?: string }, ownHosts: readonly string[]): VisitSource {
  const query = input.query === undefined ? undefined : input.query.startsWith('?') || input.query.includes('://') ? input.query : `?${input.query}`;
  const campaign = campaignOf(query);
  return {
    referrer: referrerDomain(input.referer, ownHosts) ?? null,
    ref: campaign.ref ?? null,
    source: campaign.source ?? null,
    utmSource: campaign.utmSource ?? null,
    utmMedium: campaign.utmMedium ?? null,
    utmCampaign: campaign.utmCampaign ?? null,
    device: deviceClass(input.userAgent),
  };
}
