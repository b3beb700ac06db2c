import type { LeadDto, PageDto, PageStatsDto, SubscriptionDto, UserDto } from '@plink/contracts';

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

/** Replaces `fetch` (jsdom has none) with a fake server; unknown requests fail the test. */
export function mockFetch(routes: MockRoutes) {
  const fetchMock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const route = routes[key];
    if (!route) throw new Error(`Unexpected request in test: ${key}`);
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
    ...overrides,
  };
}

export const signedOut: MockRoutes = {
  'GET /api/user': { status: 401, body: { message: 'Not authenticated' } },
};

export const signedInAs = (overrides: Partial<UserDto> = {}): MockRoutes => ({
  'GET /api/user': { body: makeUser(overrides) },
});

export function makePage(overrides: Partial<PageDto> = {}): PageDto {
  return {
    id: 1,
    userId: 1,
    slug: 'free-guide',
    title: 'Free Guide',
    subtext: '<p>Learn the basics.</p>',
    authorName: null,
    buttonText: 'Submit',
    buttonColor: '#000000',
    backgroundColor: '#ffffff',
    backgroundImage: null,
    imageUrl: null,
    fileUrl: 'https://files.example.com/guide.pdf',
    redirectUrl: null,
    showUsername: true,
    useSharpCorners: false,
    hideDropShadow: false,
    webhookUrl: null,
    customCodeSnippet: null,
    thankYouHeadline: 'Thank you!',
    thankYouSubtext: 'Check your email for your download link.',
    thankYouButtonText: null,
    thankYouButtonUrl: null,
    textAlignment: 'left',
    showBranding: true,
    hidePrivacyPolicyCheckbox: false,
    titleFont: 'Inter',
    descriptionFont: 'Inter',
    authorFont: 'Inter',
    titleBold: true,
    descriptionBold: false,
    authorBold: false,
    metaTitle: null,
    metaDescription: null,
    metaImageUrl: null,
    faviconUrl: null,
    facebookPixelId: null,
    googleAnalyticsId: null,
    views: 0,
    conversions: 0,
    paused: false,
    createdAt: '2025-02-01T10:00:00.000Z',
    updatedAt: '2025-02-01T10:00:00.000Z',
    ...overrides,
  };
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

/** `count` leads, newest first, with the stats the server would answer for them. */
export function makeStats(count: number, views = count * 4): PageStatsDto {
  const leads: LeadDto[] = Array.from({ length: Math.min(count, 100) }, (_, i) => ({
    id: count - i,
    email: `lead${count - i}@example.com`,
    createdAt: new Date(Date.UTC(2025, 2, 1, 12, 0, 0) - i * 60_000).toISOString(),
  }));
  const conversionRate = views ? Math.round((count / views) * 1000) / 10 : 0;
  return { views, conversions: count, conversionRate, leads };
}

/** A promise the test settles itself: holds a fake server's answer back while a test looks at the pending state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
