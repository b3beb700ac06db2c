import { screen, waitFor, within } from '@testing-library/react';
import { AccountDataMessages, IdentityMessages } from '@plink/contracts';
import { freePlan, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function openDialog(routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs({}), ...freePlan, ...routes });
  const rendered = renderApp('/settings?tab=account');
  const heading = await screen.findByRole('heading', { name: 'Delete account' });
  const card = within(heading.closest('.mantine-Card-root') as HTMLElement);
  await rendered.user.click(card.getByRole('button', { name: 'Delete account' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
  return { fetchMock, dialog, ...rendered };
}

describe('/settings account: delete account', () => {
  it('sends the password and the typed username, then signs out to the home page with a message', async () => {
    const { user, dialog, fetchMock, location } = await openDialog({ 'DELETE /api/account': { body: { message: AccountDataMessages.accountDeleted } } });
    await user.type(dialog.getByLabelText('Password'), 'my-secret');
    await user.type(dialog.getByLabelText(/Type your username/), 'ana');
    await user.click(dialog.getByRole('button', { name: 'Delete my account' }));

    expect(await findToast('Account deleted')).toHaveTextContent(AccountDataMessages.accountDeleted);
    expect(sentPayloads(fetchMock, 'DELETE', '/api/account')).toEqual([{ password: 'my-secret', username: 'ana' }]);
    await waitFor(() => expect(location()).toBe('/'));
  });

  it('refuses a username that is not the account’s before sending anything', async () => {
    const { user, dialog, fetchMock } = await openDialog();
    await user.type(dialog.getByLabelText('Password'), 'my-secret');
    await user.type(dialog.getByLabelText(/Type your username/), 'someone-else');
    await user.click(dialog.getByRole('button', { name: 'Delete my account' }));
    expect(dialog.getByLabelText(/Type your username/)).toHaveAccessibleDescription(AccountDataMessages.usernameMismatch);
    expect(sentPayloads(fetchMock, 'DELETE', '/api/account')).toHaveLength(0);
  });

  it("shows the server's refusal of the password under the password field, and stays signed in", async () => {
    const { user, dialog, location } = await openDialog({ 'DELETE /api/account': { status: 400, body: { message: IdentityMessages.currentPasswordWrong } } });
    await user.type(dialog.getByLabelText('Password'), 'wrong');
    await user.type(dialog.getByLabelText(/Type your username/), 'ana');
    await user.click(dialog.getByRole('button', { name: 'Delete my account' }));
    await screen.findByText(IdentityMessages.currentPasswordWrong);
    expect(dialog.getByLabelText('Password')).toHaveAccessibleDescription(IdentityMessages.currentPasswordWrong);
    expect(location()).toBe('/settings?tab=account');
  });
});
