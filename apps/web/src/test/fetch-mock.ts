import type { LeadDto, PageDto, PageStatsDto, PageTemplateEntryDto, SubscriptionDto, UserDto } from '@plink/contracts';
import { makePageDto } from '@plink/contracts/testing';

/** What the fake server answers for one request. */
export interface MockReply {
  status?: number;
  statusText?: string;
  /** JSON-encoded unless it is already a string. */
  body?: unknown;
}

/** A reply, or a function of the JSON payload giving one (a promise holds the answer back). */
type Route = MockReply | ((payload: unknown) => MockReply | Promise<MockReply>);

/** Routes keyed "METHOD /path", e.g. "POST /api/login". */
export type MockRoutes = Record<string, Route>;

export function fakeResponse({ status = 200, statusText = '', body }: MockReply): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => text } as Response;
}

/**
 * The requests no route answered since the test's mockFetch(). The app may catch the error they get (a check
 * that only logs its failure), so setup.ts fails the test after it ends when there are any.
 */
const unexpectedRequests: string[] = [];

/** The unexpected requests so far, forgotten once read. */
export const takeUnexpectedRequests = (): string[] => unexpectedRequests.splice(0);

/**
 * What a test need not mock: a page's "under attack" state (the editor's Settings tab asks), not under attack;
 * the dashboard's sparklines, no views in the last 30 days; the Trash (Settings asks), empty.
 */
function standardRoute(key: string): Route | undefined {
  if (key === 'GET /api/pages/daily-views') return { body: { from: '2026-10-29', to: '2026-11-27', views: {} } };
  if (key === 'GET /api/trash') return { body: [] };
  // Settings → API tokens and Automations load with the account tab: none unless a test says otherwise.
  if (key === 'GET /api/tokens' || key === 'GET /api/hooks') return { body: [] };
  // Settings → Account asks for the newest data export: none, unless a test says otherwise.
  if (key === 'GET /api/account/export') return { body: { export: null } };
  return /^GET \/api\/pages\/\d+\/protection$/.test(key) ? { body: { underAttackUntil: null } } : undefined;
}

/** Replaces `fetch` (jsdom has none) with a fake server; unknown requests fail the test. */
export function mockFetch(routes: MockRoutes) {
  unexpectedRequests.length = 0;
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    // A route may be given with its query (one answer per query) or without (one answer for any query).
    const route = routes[key] ?? routes[key.replace(/\?.*$/, '')] ?? standardRoute(key);
    if (!route) {
      unexpectedRequests.push(key);
      throw new Error(`Unexpected request in test: ${key}`);
    }
    const payload = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    // Like a real server, answer in a later task (with fake timers: when the test advances time).
    await new Promise((resolve) => setTimeout(resolve, 0));
    return fakeResponse(typeof route === 'function' ? await route(payload) : route);
  });
  globalThis.fetch = fetchMock as typeof fetch;
  return fetchMock;
}

/** The JSON payloads sent to one endpoint, in order. */
export function sentPayloads(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === url && (init?.method ?? 'GET') === method)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

export function makeUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 1,
    username: 'ana',
    email: 'ana@example.com',
    isVerified: true,
    isPremium: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    pendingEmail: null,
    ...overrides,
  };
}

export const signedOut: MockRoutes = {
  'GET /api/user': { status: 401, body: { message: 'Not authenticated' } },
};

export const signedInAs = (overrides: Partial<UserDto> = {}): MockRoutes => ({
  'GET /api/user': { body: makeUser(overrides) },
});

/** A new page (`free-guide`) with a title, a description and a file to send; overrides replace fields. */
export function makePage(overrides: Partial<PageDto> = {}): PageDto {
  return makePageDto({
    title: 'Free Guide',
    subtext: '<p>Learn the basics.</p>',
    fileUrl: 'https://files.example.com/guide.pdf',
    ...overrides,
  });
}

/** GET /api/subscription of a Free user who never subscribed, on a server that takes payments. */
export function makeSubscription(overrides: Partial<SubscriptionDto> = {}): SubscriptionDto {
  return {
    isPremium: false,
    status: 'none',
    source: null,
    trialEnd: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    trialAvailable: true,
    paymentsConfigured: true,
    canManageBilling: false,
    downgradedAt: null,
    leadRemovalAt: null,
    ...overrides,
  };
}

/*
 * Answers of requests a screen makes besides the one a test is about, for tests that pass through that screen.
 */

/** The editor's check of a slug being typed (GET /api/slug-availability): every address is free. */
export const slugsAvailable: MockRoutes = {
  'GET /api/slug-availability': { body: { slug: '', available: true, message: null } },
};

/** Settings → Subscription of a Free user, and the dashboard's upgrade offer to them (GET /api/subscription). */
export const freePlan: MockRoutes = { 'GET /api/subscription': { body: makeSubscription() } };

/** The dashboard of a user without pages (GET /api/pages; a Free user's upgrade offer reads their plan). */
export const noPages: MockRoutes = { 'GET /api/pages': { body: [] }, ...freePlan };

/** A gallery card as GET /api/templates answers it; its template's fields are a page's, overridable. */
export function makeTemplateEntry(
  entry: Pick<PageTemplateEntryDto, 'slug' | 'name' | 'category'> & Partial<Omit<PageTemplateEntryDto, 'page'>>,
  page: Partial<PageDto> = {},
): PageTemplateEntryDto {
  const { slug: _slug, id: _id, userId: _userId, views: _views, conversions: _conversions, pending: _pending, conversionsWithoutVisit: _withoutVisit, paused: _paused, createdAt: _c, updatedAt: _u, webhookUrl: _w, customCodeSnippet: _code, facebookPixelId: _f, googleAnalyticsId: _g, ...fields } =
    makePage({ title: entry.name, imageUrl: `/uploads/templates/${entry.slug}.jpg`, fileUrl: null, ...page });
  return { description: `A page for ${entry.name.toLowerCase()}.`, imageUrl: fields.imageUrl, ...entry, page: fields };
}

/** The template gallery (GET /api/templates): a few templates of three categories. */
export const templateList: PageTemplateEntryDto[] = [
  makeTemplateEntry({ slug: 'photo-guide', name: 'Cheat sheet', category: 'downloads' }, { title: 'Free Photography Cheat Sheet', imageUrl: '/uploads/examples/photo-guide.jpg' }),
  makeTemplateEntry({ slug: 'ebook-download', name: 'Ebook download', category: 'downloads' }, { title: 'The No-Spreadsheet Budget', buttonText: 'Download the Free Ebook' }),
  makeTemplateEntry({ slug: 'webinar-signup', name: 'Webinar registration', category: 'events' }, { title: 'Free Live Webinar', buttonText: 'Save My Seat' }),
  makeTemplateEntry({ slug: 'petition', name: 'Petition', category: 'nonprofits' }, { title: 'Safe Streets to School', buttonText: 'Add My Name' }),
];
export const templatesAvailable: MockRoutes = { 'GET /api/templates': { body: templateList } };

/** The dashboard's check of a Pro user's plan, once per visit (POST /api/check-subscription-status): still active. */
export const proPlanStillActive: MockRoutes = {
  'POST /api/check-subscription-status': { body: { hasActiveSubscription: true, updated: false, isPremium: true } },
};

/** `count` leads, newest first, with the stats the server would answer for them (and the refusals given). */
export function makeStats(count: number, views = count * 4, blocked: Partial<PageStatsDto['blocked']> = {}): PageStatsDto {
  const leads: LeadDto[] = Array.from({ length: Math.min(count, 100) }, (_, i) => ({
    id: count - i,
    email: `lead${count - i}@example.com`,
    createdAt: new Date(Date.UTC(2025, 2, 1, 12, 0, 0) - i * 60_000).toISOString(),
    status: 'confirmed',
  }));
  const conversionRate = views ? Math.round((count / views) * 1000) / 10 : 0;
  const day = '2025-03-01';
  return {
    views,
    conversions: count,
    pending: 0,
    conversionsWithoutVisit: { api: 0, html: 0 },
    conversionRate,
    leads,
    range: { from: day, to: day },
    series: [{ day, views, uniques: views, leads: count }],
    totals: {
      views,
      uniques: views,
      leads: count,
      leadsWithoutVisit: { api: 0, html: 0 },
      conversionRate,
      visitorConversionRate: conversionRate,
      previous: { views: 0, uniques: 0, leads: 0 },
      change: { views: null, uniques: null, leads: null },
    },
    breakdowns: { referrers: [], utmSources: [], utmCampaigns: [], devices: [] },
    blocked: { token: 0, timing: 0, honeypot: 0, disposable: 0, noMx: 0, rateLimit: 0, ...blocked },
  };
}

/** A promise the test settles itself: holds a fake server's answer back while a test looks at the pending state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
