import { leadCreatedData, type LeadCreatedEvent, type LeadCreatedSource } from '@plink/contracts';

export interface EventLead {
  id: number;
  email: string;
  createdAt: Date;
  consentAt: Date | null;
  /** Absent for leads whose job was recorded before sources were kept: every value null. */
  source?: LeadCreatedSource;
}

const NO_SOURCE: LeadCreatedSource = { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null, device: null };
/** The source a test event shows: a lead from a newsletter link, on a desktop browser. */
const EXAMPLE_SOURCE: LeadCreatedSource = { referrer: 'example.com', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'launch', device: 'desktop' };

export interface EventPage {
  pageId: number;
  slug: string;
  title: string;
  pageUrl: string;
}

/** The address a test event carries. */
export const TEST_EVENT_EMAIL = 'jane.doe@example.com';

/** The JSON body of a `lead.created` webhook (written once per message: every attempt sends the same bytes). */
export function leadCreatedBody(lead: EventLead, page: EventPage, options: { test?: boolean; at?: Date } = {}): string {
  const event: LeadCreatedEvent = {
    type: 'lead.created',
    timestamp: (options.at ?? new Date()).toISOString(),
    ...(options.test ? { test: true as const } : {}),
    // The same builder as the API's leads (GET /api/v1/leads), so both have the same keys.
    data: leadCreatedData({ ...lead, source: lead.source ?? NO_SOURCE }, { id: page.pageId, slug: page.slug, title: page.title, url: page.pageUrl }),
  };
  return JSON.stringify(event);
}

/** A test event: an example lead, as if it had just signed up on the page. */
export function testEventBody(page: EventPage, at = new Date()): string {
  return leadCreatedBody({ id: 0, email: TEST_EVENT_EMAIL, createdAt: at, consentAt: at, source: EXAMPLE_SOURCE }, page, { test: true, at });
}
