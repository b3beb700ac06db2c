import { screen } from '@testing-library/react';
import { IdentityMessages } from '@plink/contracts';
import { mockFetch, sentPayloads, signedOut } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

describe('/confirm-email', () => {
  it('confirms the link once and says so', async () => {
    const fetchMock = mockFetch({ ...signedOut, 'POST /api/account/email/confirm': { body: { success: true, message: IdentityMessages.emailChanged } } });
    renderApp('/confirm-email?token=tok_1');
    expect(await screen.findByRole('heading', { name: 'Email changed' })).toBeInTheDocument();
    expect(await findToast('Email changed')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/account/email/confirm')).toEqual([{ token: 'tok_1' }]);
  });

  it("shows why a link did not work and where to ask for another", async () => {
    mockFetch({ ...signedOut, 'POST /api/account/email/confirm': { status: 400, body: { message: IdentityMessages.invalidEmailChangeToken } } });
    renderApp('/confirm-email?token=used');
    expect(await screen.findByRole('heading', { name: 'Email not changed' })).toBeInTheDocument();
    expect(screen.getByText(/Invalid or expired confirmation link\. Ask for a new link in Settings → Account\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', '/settings?tab=account');
  });
});
