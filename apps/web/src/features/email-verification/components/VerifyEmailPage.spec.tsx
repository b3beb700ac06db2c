import { act, screen } from '@testing-library/react';
import { makeUser, mockFetch, noPages, sentPayloads } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

describe('/verify-email', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('verifies the token once, then thanks the user on the dashboard after 1.5 s', async () => {
    const fetchMock = mockFetch({
      // The refetch still says unverified (e.g. a replica lagging): the SPA marks the user verified.
      'GET /api/user': { body: makeUser({ email: 'ana@example.com', isVerified: false }) },
      'POST /api/verify-email': { body: { message: 'Email verified' } },
      ...noPages,
    });
    const { location } = renderApp('/verify-email?token=tok-123', { fakeTimers: true });

    await findToast('Verification complete');
    expect(location()).toBe('/verify-email?token=tok-123');
    await act(() => jest.advanceTimersByTime(1500));

    expect(await findToast('Thanks for verifying your email')).toHaveTextContent(
      'ana@example.com has been verified successfully.',
    );
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/dashboard');
    // StrictMode mounts the page twice; the token is still sent only once.
    expect(sentPayloads(fetchMock, 'POST', '/api/verify-email')).toEqual([{ token: 'tok-123' }]);
  });

  it('still goes to the dashboard when verification fails, which sends the still unverified user to the verify prompt', async () => {
    mockFetch({
      'GET /api/user': { body: makeUser({ isVerified: false }) },
      'POST /api/verify-email': { status: 400, body: { message: 'Invalid or expired verification token' } },
    });
    const { location } = renderApp('/verify-email?token=expired', { fakeTimers: true });

    expect(await findToast('Verification issue')).toHaveTextContent(
      'There was a problem verifying your email, but you can continue using the app.',
    );
    await act(() => jest.advanceTimersByTime(1500));

    expect(await screen.findByRole('heading', { name: 'Please verify your email' })).toBeInTheDocument();
    expect(location()).toBe('/verify-prompt');
    expect(screen.queryByText('Thanks for verifying your email')).not.toBeInTheDocument();
  });

  it('reports a missing token without calling the server', async () => {
    const fetchMock = mockFetch({ 'GET /api/user': { body: makeUser() } });
    renderApp('/verify-email', { fakeTimers: true });

    await findToast('Verification failed: Missing verification token');
    expect(sentPayloads(fetchMock, 'POST', '/api/verify-email')).toHaveLength(0);
  });
});
