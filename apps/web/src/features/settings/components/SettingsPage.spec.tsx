import { screen, within } from '@testing-library/react';
import { freePlan, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function openSettings(routes = {}) {
  const fetchMock = mockFetch({ ...signedInAs(), ...freePlan, ...routes });
  const rendered = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Change password' });
  return { fetchMock, ...rendered };
}

// The e-mail form has a "Current Password" too: these are the password card's fields.
const passwordCard = () => screen.getByRole('heading', { name: 'Change password' }).closest('.mantine-Card-root') as HTMLElement;
const field = (label: string) => within(passwordCard()).getByLabelText(label);

describe('/settings password form', () => {
  it('requires every field', async () => {
    const { user, fetchMock } = await openSettings();

    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(field('Current Password')).toHaveAccessibleDescription('Current password is required');
    expect(field('New Password')).toHaveAccessibleDescription('New password must be at least 8 characters');
    expect(field('Confirm New Password')).toHaveAccessibleDescription('Please confirm your new password');
    expect(sentPayloads(fetchMock, 'POST', '/api/update-password')).toHaveLength(0);
  });

  it('wants 8 characters and a matching confirmation', async () => {
    const { user } = await openSettings();

    await user.type(field('Current Password'), 'old-secret');
    await user.type(field('New Password'), 'short12');
    await user.type(field('Confirm New Password'), 'short12');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(field('New Password')).toHaveAccessibleDescription('New password must be at least 8 characters');

    await user.type(field('New Password'), '3');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(field('New Password')).not.toHaveAccessibleDescription();
    expect(field('Confirm New Password')).toHaveAccessibleDescription("Passwords don't match");
  });

  it('sends current and new password and confirms the update', async () => {
    const { user, fetchMock } = await openSettings({
      'POST /api/update-password': { body: { message: 'Your password has been updated.' } },
    });

    await user.type(field('Current Password'), 'old-secret');
    await user.type(field('New Password'), 'new-secret-1');
    await user.type(field('Confirm New Password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await findToast('Password updated')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/update-password')).toEqual([
      { currentPassword: 'old-secret', newPassword: 'new-secret-1' },
    ]);
    expect(field('Current Password')).toHaveValue('');
  });

  it("shows the server's reason when the update fails", async () => {
    const { user } = await openSettings({
      'POST /api/update-password': { status: 400, body: { message: 'Current password is incorrect' } },
    });

    await user.type(field('Current Password'), 'wrong-secret');
    await user.type(field('New Password'), 'new-secret-1');
    await user.type(field('Confirm New Password'), 'new-secret-1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await findToast('Password update failed')).toHaveTextContent('Current password is incorrect');
  });
});
