import { screen, within } from '@testing-library/react';
import { IdentityMessages } from '@plink/contracts';
import { freePlan, makeUser, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function openSettings(user = {}, routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs(user), ...freePlan, ...routes });
  const rendered = renderApp('/settings?tab=account');
  await screen.findByRole('heading', { name: 'Email' });
  return { fetchMock, ...rendered };
}

const emailCard = () => screen.getByRole('heading', { name: 'Email' }).closest('.mantine-Card-root') as HTMLElement;
const usernameCard = () => screen.getByRole('heading', { name: 'Username' }).closest('.mantine-Card-root') as HTMLElement;

describe('/settings account: e-mail', () => {
  it('shows the current address, sends the new one with the current password, then shows it pending', async () => {
    const { user, fetchMock } = await openSettings(
      {},
      { 'POST /api/account/email': { body: makeUser({ pendingEmail: 'new@example.com' }) } },
    );
    const card = within(emailCard());
    expect(card.getByText('ana@example.com')).toBeInTheDocument();

    await user.type(card.getByLabelText('New Email'), ' new@example.com ');
    await user.type(card.getByLabelText('Current Password'), 'my-secret');
    await user.click(card.getByRole('button', { name: 'Change Email' }));

    expect(await findToast('Check your new inbox')).toHaveTextContent(IdentityMessages.emailChangeSent);
    expect(sentPayloads(fetchMock, 'POST', '/api/account/email')).toEqual([{ newEmail: 'new@example.com', currentPassword: 'my-secret' }]);
    expect(await card.findByText('new@example.com')).toBeInTheDocument();
    expect(card.getByText('Waiting for confirmation')).toBeInTheDocument();
    expect(card.getByLabelText('Current Password')).toHaveValue('');
  });

  it('checks the fields before sending', async () => {
    const { user, fetchMock } = await openSettings();
    const card = within(emailCard());
    await user.type(card.getByLabelText('New Email'), 'not-an-address');
    await user.click(card.getByRole('button', { name: 'Change Email' }));
    expect(card.getByLabelText('New Email')).toHaveAccessibleDescription(IdentityMessages.invalidEmailAddress);
    expect(card.getByLabelText('Current Password')).toHaveAccessibleDescription(IdentityMessages.currentPasswordRequired);
    expect(sentPayloads(fetchMock, 'POST', '/api/account/email')).toHaveLength(0);
  });

  it.each([
    ['Current Password', IdentityMessages.currentPasswordWrong, 400],
    ['New Email', IdentityMessages.emailExists, 409],
  ])("shows the server's refusal under %s", async (label, message, status) => {
    const { user } = await openSettings({}, { 'POST /api/account/email': { status, body: { message } } });
    const card = within(emailCard());
    await user.type(card.getByLabelText('New Email'), 'taken@example.com');
    await user.type(card.getByLabelText('Current Password'), 'my-secret');
    await user.click(card.getByRole('button', { name: 'Change Email' }));
    await screen.findByText(message);
    expect(card.getByLabelText(label)).toHaveAccessibleDescription(message);
  });

  it('toasts a refusal that belongs to no field (the cooldown)', async () => {
    const wait = 'Please wait 12 seconds before requesting another email change.';
    const { user } = await openSettings({}, { 'POST /api/account/email': { status: 429, body: { message: wait } } });
    const card = within(emailCard());
    await user.type(card.getByLabelText('New Email'), 'new@example.com');
    await user.type(card.getByLabelText('Current Password'), 'my-secret');
    await user.click(card.getByRole('button', { name: 'Change Email' }));
    expect(await findToast('Email change failed')).toHaveTextContent(wait);
  });

  it('cancels a pending change', async () => {
    const { user, fetchMock } = await openSettings(
      { pendingEmail: 'new@example.com' },
      { 'POST /api/account/email/cancel': { body: makeUser({ pendingEmail: null }) } },
    );
    const card = within(emailCard());
    expect(card.getByText('new@example.com')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Cancel change' }));
    expect(await findToast('Email change cancelled')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/account/email/cancel')).toHaveLength(1);
    expect(card.queryByText('Waiting for confirmation')).not.toBeInTheDocument();
  });
});

describe('/settings account: username', () => {
  it('starts from the current name and saves a new one', async () => {
    const { user, fetchMock } = await openSettings({}, { 'POST /api/account/username': { body: makeUser({ username: 'ana_new' }) } });
    const card = within(usernameCard());
    const input = card.getByLabelText('Username');
    expect(input).toHaveValue('ana');
    await user.clear(input);
    await user.type(input, 'ana_new');
    await user.click(card.getByRole('button', { name: 'Change Username' }));
    expect(await findToast('Username changed')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/account/username')).toEqual([{ username: 'ana_new' }]);
    expect(input).toHaveValue('ana_new');
  });

  it('applies the registration rules before sending, and shows a taken name under the field', async () => {
    const { user, fetchMock } = await openSettings(
      {},
      { 'POST /api/account/username': { status: 409, body: { message: IdentityMessages.usernameExists } } },
    );
    const card = within(usernameCard());
    const input = card.getByLabelText('Username');
    await user.clear(input);
    await user.type(input, 'a b');
    await user.click(card.getByRole('button', { name: 'Change Username' }));
    expect(input).toHaveAccessibleDescription(IdentityMessages.usernameCharacters);
    expect(sentPayloads(fetchMock, 'POST', '/api/account/username')).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'bob');
    await user.click(card.getByRole('button', { name: 'Change Username' }));
    await card.findByText(IdentityMessages.usernameExists);
    expect(input).toHaveAccessibleDescription(IdentityMessages.usernameExists);
  });
});
