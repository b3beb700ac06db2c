import { act, screen } from '@testing-library/react';
import { mockFetch, noPages, signedInAs, signedOut } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const unverified = signedInAs({ isVerified: false, email: 'ana@example.com' });

describe('/verify-prompt', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const tick = (ms: number) => act(() => jest.advanceTimersByTime(ms));

  it("shows the user's address and counts down 30 s after a resend", async () => {
    mockFetch({ ...unverified, 'POST /api/resend-verification': { body: { message: 'Verification email sent' } } });
    const { user } = renderApp('/verify-prompt', { fakeTimers: true });

    expect(await screen.findByRole('heading', { name: 'Please verify your email' })).toBeInTheDocument();
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));

    expect(await screen.findByRole('button', { name: 'Wait 30s to resend' })).toBeDisabled();
    await tick(1000);
    expect(screen.getByRole('button', { name: 'Wait 29s to resend' })).toBeDisabled();
    await tick(28_000);
    expect(screen.getByRole('button', { name: 'Wait 1s to resend' })).toBeDisabled();
    await tick(1000);
    expect(screen.getByRole('button', { name: 'Resend verification email' })).toBeEnabled();
  });

  it('also counts down when the server says to slow down (429)', async () => {
    mockFetch({
      ...unverified,
      'POST /api/resend-verification': { status: 429, body: { message: 'Too many requests. Please slow down.' } },
    });
    const { user } = renderApp('/verify-prompt', { fakeTimers: true });

    await user.click(await screen.findByRole('button', { name: 'Resend verification email' }));

    expect(await screen.findByRole('button', { name: 'Wait 30s to resend' })).toBeDisabled();
    expect(await findToast('Failed to resend verification email')).toHaveTextContent(
      'Too many requests. Please slow down.',
    );
  });

  it('keeps the button usable after another failure', async () => {
    mockFetch({ ...unverified, 'POST /api/resend-verification': { status: 500, body: { message: 'SMTP down' } } });
    const { user } = renderApp('/verify-prompt', { fakeTimers: true });

    await user.click(await screen.findByRole('button', { name: 'Resend verification email' }));

    expect(await findToast('Failed to resend verification email')).toHaveTextContent('SMTP down');
    expect(screen.getByRole('button', { name: 'Resend verification email' })).toBeEnabled();
  });

  it.each([
    ['a logged-out visitor', signedOut, '/'],
    ['a verified user', { ...signedInAs({ isVerified: true }), ...noPages }, '/dashboard'],
  ])('sends %s away', async (_who, routes, target) => {
    mockFetch(routes);
    const { location } = renderApp('/verify-prompt', { fakeTimers: true });

    await screen.findByRole('heading', { level: 1 });
    expect(location()).toBe(target);
  });
});
