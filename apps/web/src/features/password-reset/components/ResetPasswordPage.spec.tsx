import { screen } from '@testing-library/react';
import { mockFetch, sentPayloads } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

describe('/reset-password', () => {
  it('shows the invalid-link state for a token the server rejects', async () => {
    mockFetch({ 'GET /api/user': { status: 401 }, 'GET /api/verify-reset-token/old-token': { body: { valid: false } } });
    renderApp('/reset-password?token=old-token');

    expect(await screen.findByText('Verifying your reset link...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Link' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request New Link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });

  it('treats a link without a token as invalid without asking the server', async () => {
    const fetchMock = mockFetch({ 'GET /api/user': { status: 401 } });
    renderApp('/reset-password');

    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Link' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContainEqual(
      expect.stringContaining('/api/verify-reset-token'),
    );
  });

  it('sets the new password for a valid token', async () => {
    const fetchMock = mockFetch({
      'GET /api/user': { status: 401 },
      'GET /api/verify-reset-token/good-token': { body: { valid: true } },
      'POST /api/reset-password': { body: { success: true, message: 'Your password has been reset.' } },
    });
    const { user } = renderApp('/reset-password?token=good-token');

    await user.type(await screen.findByLabelText('New Password'), 'brand-new-pw');
    await user.type(screen.getByLabelText('Confirm New Password'), 'brand-new-px');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByLabelText('Confirm New Password')).toHaveAccessibleDescription("Passwords don't match");

    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'brand-new-pw');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('heading', { name: 'Password Reset Complete' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/auth');
    expect(sentPayloads(fetchMock, 'POST', '/api/reset-password')).toEqual([
      { token: 'good-token', password: 'brand-new-pw' },
    ]);
  });
});
