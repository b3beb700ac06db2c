import type { UserDto } from '@plink/contracts';

/** What the fake server answers for one request. */
export interface MockReply {
  status?: number;
  statusText?: string;
  /** JSON-encoded unless it is already a string. */
  body?: unknown;
}

type Route = MockReply | ((payload: unknown) => MockReply);

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
    return fakeResponse(typeof route === 'function' ? route(payload) : route);
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
