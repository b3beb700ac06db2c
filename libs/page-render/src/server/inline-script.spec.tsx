/**
 * The visitor page's inline script, run for real: the server's document loaded into jsdom with
 * scripts enabled and a mocked fetch.
 */
import { JSDOM } from 'jsdom';
import type { PublicPageDto, SubmitLeadResponse } from '@plink/contracts';
import { makePage } from '../__fixtures__/page';
import { renderPublicPageDocument } from './render-document';

interface FakeResponse {
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
}
type FetchArgs = [string, { method: string; body: string; headers: Record<string, string> }];
type FetchMock = jest.Mock<Promise<FakeResponse>, FetchArgs>;
const mockFetch = (impl?: () => Promise<FakeResponse>): FetchMock => jest.fn<Promise<FakeResponse>, FetchArgs>(impl);

function respond(status: number, body: unknown, statusText = status === 200 ? 'OK' : 'Bad Request'): FakeResponse {
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => (typeof body === 'string' ? body : JSON.stringify(body)) };
}

function success(page: PublicPageDto, overrides: Partial<SubmitLeadResponse> = {}): SubmitLeadResponse {
  const button = page.thankYouButtonText && page.thankYouButtonUrl ? { text: page.thankYouButtonText, url: page.thankYouButtonUrl } : null;
  return {
    success: true,
    thankYouHeadline: page.thankYouHeadline,
    thankYouSubtext: page.thankYouSubtext,
    thankYouButton: button,
    redirectUrl: page.redirectUrl,
    ...overrides,
  };
}

function load(page: PublicPageDto, fetchMock?: FetchMock) {
  const html = renderPublicPageDocument(page, {
    state: 'form',
    canonicalUrl: `https://plink.test/${page.slug}`,
    appOrigin: 'https://plink.test',
    formToken: 'v1.token-as-served',
  });
  const dom = new JSDOM(html, {
    url: `https://plink.test/${page.slug}`,
    runScripts: 'dangerously',
    beforeParse(window) {
      if (fetchMock) (window as unknown as { fetch: FetchMock }).fetch = fetchMock;
    },
  });
  const { document } = dom.window;
  const q = <T extends Element = HTMLElement>(selector: string) => document.querySelector(selector) as T | null;
  const form = q<HTMLFormElement>('form.plk-form')!;
  const email = q<HTMLInputElement>('input[name="email"]')!;
  const consent = q<HTMLInputElement>('input[name="consent"]');
  const button = q<HTMLButtonElement>('button.plk-btn')!;
  const fill = (address = 'ann@example.com', agree = true) => {
    email.value = address;
    if (consent) consent.checked = agree;
  };
  /** Fires the submit event as a browser would after its own validation. */
  const submit = () => form.dispatchEvent(new dom.window.Event('submit', { bubbles: true, cancelable: true }));
  const fields = () => [...document.querySelectorAll<HTMLInputElement | HTMLButtonElement>('form input, form button')];
  return { dom, window: dom.window, document, q, form, email, consent, button, fill, submit, fields };
}

/** Lets pending promise callbacks (the mocked fetch and the script's chain) run. */
async function settle() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  jest.useRealTimers();
});

describe('the inline submit script', () => {
  it('preloads the page data on window', () => {
    const page = makePage({ title: 'A </script> B\u2028C' });
    const { window } = load(page, mockFetch());
    expect((window as unknown as { __PLINK_PAGE__: PublicPageDto }).__PLINK_PAGE__).toEqual(page);
  });

  it("shows 'Submitting...' with inputs disabled, posts JSON, then the thank-you state", async () => {
    const page = makePage({ thankYouHeadline: 'You are in!', thankYouSubtext: 'Look in your inbox.' });
    const pending = deferred<FakeResponse>();
    const fetchMock = mockFetch(() => pending.promise);
    const t = load(page, fetchMock);
    t.fill('  ann@example.com ');
    (t.q<HTMLInputElement>('input[name="website"]')!).value = '';

    t.submit();
    expect(t.button.textContent).toBe('Submitting...');
    expect(t.fields().every((f) => f.disabled)).toBe(true);
    expect(t.form.getAttribute('aria-busy')).toBe('true');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/page/photo-guide/submit');
    expect(init.method).toBe('POST');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(init.body)).toEqual({ email: 'ann@example.com', consent: true, website: '', formToken: 'v1.token-as-served', referrer: '', query: '' });

    // A second submit while sending does nothing.
    t.submit();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    pending.resolve(respond(200, success(page)));
    await settle();
    expect(t.q('form')).toBeNull();
    expect(t.q('.plk-thanks-title')!.textContent).toBe('You are in!');
    expect(t.q('.plk-thanks-text')!.textContent).toBe('Look in your inbox.');
    expect(t.q('.plk-thanks .plk-btn')).toBeNull();
    expect(t.q('.plk-root')!.textContent).not.toContain('Redirecting you shortly...');
    expect(t.q('.plk-redirect')).toBeNull();
    expect(t.q('.plk-root')!.getAttribute('data-plk-state')).toBe('thank-you');
    expect(t.document.activeElement).toBe(t.q('.plk-thanks-title'));
    // The card (and its image) and footer stay.
    expect(t.q('.plk-card .plk-body .plk-thanks')).not.toBeNull();
    expect(t.q('.plk-footer')).not.toBeNull();
  });

  it('sends the honeypot and consent as they are, and no consent when the box is hidden', async () => {
    const fetchMock = mockFetch(async () => respond(200, success(makePage())));
    const t = load(makePage(), fetchMock);
    t.fill();
    t.q<HTMLInputElement>('input[name="website"]')!.value = 'https://spam.example';
    t.submit();
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ email: 'ann@example.com', consent: true, website: 'https://spam.example', formToken: 'v1.token-as-served', referrer: '', query: '' });

    const hidden = mockFetch(async () => respond(200, success(makePage())));
    const h = load(makePage({ hidePrivacyPolicyCheckbox: true }), hidden);
    expect(h.consent).toBeNull();
    h.fill();
    h.submit();
    expect(JSON.parse(hidden.mock.calls[0][1].body)).toEqual({ email: 'ann@example.com', consent: false, website: '', formToken: 'v1.token-as-served', referrer: '', query: '' });
  });

  it('sends nothing without an e-mail or without consent', () => {
    const fetchMock = mockFetch();
    const t = load(makePage(), fetchMock);
    t.fill('   ', true);
    t.submit();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(t.q('.plk-error')!.textContent).toBe('Please enter a valid email address');
    expect(t.document.activeElement).toBe(t.email);

    t.fill('ann@example.com', false);
    t.submit();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(t.q('.plk-error')!.textContent).toBe('Please agree to the privacy policy to continue.');
    expect(t.fields().some((f) => f.disabled)).toBe(false);
  });

  it('takes the checks over from the browser and says what is missing right under that field', () => {
    const fetchMock = mockFetch(() => new Promise<Response>(() => undefined));
    const t = load(makePage(), fetchMock);
    // The browser's own bubbles stay for visitors without JavaScript (the fields keep `required`).
    expect(t.form.noValidate).toBe(true);
    expect(t.email.required).toBe(true);
    expect(t.consent!.required).toBe(true);

    t.fill('ann@example.com', false);
    t.submit();
    const consentLabel = t.consent!.closest('.plk-consent')!;
    const message = t.q('.plk-error')!;
    expect(consentLabel.nextElementSibling).toBe(message);
    expect(message.textContent).toBe('Please agree to the privacy policy to continue.');
    expect(message.getAttribute('role')).toBe('alert');
    expect(t.consent!.getAttribute('aria-invalid')).toBe('true');
    expect(t.consent!.getAttribute('aria-describedby')).toBe(message.id);
    expect(t.document.activeElement).toBe(t.consent);

    t.fill('not-an-address', true);
    t.submit();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(t.document.querySelectorAll('.plk-error')).toHaveLength(1);
    expect(t.email.nextElementSibling).toBe(t.q('.plk-error'));
    expect(t.q('.plk-error')!.textContent).toBe('Please enter a valid email address');
    expect(t.email.getAttribute('aria-invalid')).toBe('true');
    expect(t.consent!.hasAttribute('aria-invalid')).toBe(false);

    t.fill('ann@example.com', true);
    t.submit();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(t.q('.plk-error')).toBeNull();
    expect(t.email.hasAttribute('aria-invalid')).toBe(false);
  });

  it("re-enables the form and shows 'Failed to submit: {message}' on an error answer", async () => {
    const fetchMock = mockFetch(async () => respond(400, { message: 'Please enter a valid email address' }));
    const t = load(makePage(), fetchMock);
    t.fill('ann@example');
    t.submit();
    await settle();
    const error = t.q('.plk-error')!;
    expect(error.textContent).toBe('Failed to submit: Please enter a valid email address');
    expect(error.getAttribute('role')).toBe('alert');
    expect(t.button.textContent).toBe('Send me the guide');
    expect(t.fields().some((f) => f.disabled)).toBe(false);
    expect(t.form.hasAttribute('aria-busy')).toBe(false);
    expect(t.email.value).toBe('ann@example');

    // A later success clears the error and thanks the visitor.
    fetchMock.mockImplementationOnce(async () => respond(200, success(makePage())));
    t.submit();
    expect(t.q('.plk-error')).toBeNull();
    await settle();
    expect(t.q('.plk-thanks-title')!.textContent).toBe('Thank you!');
  });

  it('sends the submission again once, unseen, with the fresh token a 409 answers for an expired one', async () => {
    const renewal = { message: 'Please press Subscribe again.', formToken: 'v1.fresh' };
    const fetchMock = mockFetch();
    fetchMock.mockImplementationOnce(async () => respond(409, renewal, 'Conflict'));
    fetchMock.mockImplementationOnce(async () => respond(200, success(makePage())));
    const t = load(makePage(), fetchMock);
    t.fill();
    t.submit();
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toMatchObject({ email: 'ann@example.com', formToken: 'v1.fresh' });
    expect(t.q('.plk-error')).toBeNull();
    expect(t.q('.plk-thanks-title')!.textContent).toBe('Thank you!');

    // Only once: a second 409 is shown as the error it says.
    const twice = mockFetch(async () => respond(409, renewal, 'Conflict'));
    const u = load(makePage(), twice);
    u.fill();
    u.submit();
    await settle();
    expect(twice).toHaveBeenCalledTimes(2);
    expect(u.q('.plk-error')!.textContent).toBe('Failed to submit: Please press Subscribe again.');
  });

  it('shows the error of a 429, a non-JSON answer and a network failure', async () => {
    const cases: Array<[() => Promise<FakeResponse>, string]> = [
      [async () => respond(429, { message: 'Too many submissions from your address. Please try again in a minute.' }, 'Too Many Requests'),
        'Failed to submit: Too many submissions from your address. Please try again in a minute.'],
      [async () => respond(502, '<html><body>Bad gateway</body></html>', 'Bad Gateway'), 'Failed to submit: Bad Gateway'],
      [async () => respond(500, 'Service down', 'Internal Server Error'), 'Failed to submit: Service down'],
      [async () => Promise.reject(new TypeError('Failed to fetch')), 'Failed to submit: Failed to fetch'],
    ];
    for (const [impl, text] of cases) {
      const t = load(makePage(), mockFetch(impl));
      t.fill();
      t.submit();
      await settle();
      expect(t.q('.plk-error')!.textContent).toBe(text);
      expect(t.button.disabled).toBe(false);
    }
  });

  it("escapes the answer's texts", async () => {
    const page = makePage();
    const t = load(page, mockFetch(async () => respond(200, success(page, { thankYouHeadline: '<img src=x onerror=alert(1)>' }))));
    t.fill();
    t.submit();
    await settle();
    expect(t.q('.plk-thanks-title')!.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(t.q('.plk-thanks img')).toBeNull();
  });

  it('shows the thank-you button only when both its text and URL are set', async () => {
    const both = makePage({ thankYouButtonText: 'Download', thankYouButtonUrl: 'https://files.example.com/g.pdf' });
    const t = load(both, mockFetch(async () => respond(200, success(both))));
    t.fill();
    t.submit();
    await settle();
    const link = t.q<HTMLAnchorElement>('.plk-thanks a.plk-btn')!;
    expect(link.textContent).toBe('Download');
    expect(link.getAttribute('href')).toBe('https://files.example.com/g.pdf');

    // The answer is authoritative: no button there, none shown.
    const u = load(both, mockFetch(async () => respond(200, success(both, { thankYouButton: null }))));
    u.fill();
    u.submit();
    await settle();
    expect(u.q('.plk-thanks')).not.toBeNull();
    expect(u.q('.plk-thanks a.plk-btn')).toBeNull();

    const textOnly = makePage({ thankYouButtonText: 'Download', thankYouButtonUrl: null });
    const v = load(textOnly, mockFetch(async () => respond(200, success(textOnly))));
    v.fill();
    v.submit();
    await settle();
    expect(v.q('.plk-thanks')).not.toBeNull();
    expect(v.q('.plk-thanks a')).toBeNull();
  });

  it("says 'Redirecting you shortly...' and redirects after 3 s", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    // A same-document URL: jsdom performs fragment navigations, so the redirect is observable.
    const page = makePage({ redirectUrl: 'https://plink.test/photo-guide#next' });
    const t = load(page, mockFetch(async () => respond(200, success(page))));
    t.fill();
    t.submit();
    await settle();
    expect(t.q('.plk-redirect')!.textContent).toBe('Redirecting you shortly...');
    expect(t.window.location.hash).toBe('');
    jest.advanceTimersByTime(2999);
    expect(t.window.location.hash).toBe('');
    jest.advanceTimersByTime(1);
    expect(t.window.location.href).toBe('https://plink.test/photo-guide#next');
  });

  it('never redirects to an unsafe URL from the answer', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    const page = makePage();
    const t = load(page, mockFetch(async () => respond(200, success(page, { redirectUrl: 'javascript:alert(1)' }))));
    t.fill();
    t.submit();
    await settle();
    expect(t.q('.plk-redirect')).toBeNull();
    jest.advanceTimersByTime(5000);
    expect(t.window.location.href).toBe('https://plink.test/photo-guide');
  });

  it('leaves the plain form post alone when fetch is missing', () => {
    const t = load(makePage());
    expect(t.form.getAttribute('method')).toBe('post');
    expect(t.form.getAttribute('action')).toBe('/photo-guide');
    t.fill();
    const event = new t.window.Event('submit', { bubbles: true, cancelable: true });
    t.form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});
