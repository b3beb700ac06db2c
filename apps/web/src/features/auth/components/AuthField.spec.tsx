import { fireEvent, screen } from '@testing-library/react';
import { type MockRoutes, freePlan, mockFetch, signedInAs, signedOut } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

describe('AuthField in the account forms', () => {
  it('give each field its autofill hint, and passwords a show/hide toggle', async () => {
    mockFetch(signedOut);
    const { user } = renderApp('/auth?tab=register');

    // The screen loads lazily: give a busy machine time.
    expect(await screen.findByLabelText('Username', {}, { timeout: 10_000 })).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'email');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('autocomplete', 'new-password');

    await user.type(password, 'secret123');
    const [toggle] = screen.getAllByRole('button', { name: 'Show password' });
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('secret123');
  });
});

describe('the show/hide password button, for a keyboard and a screen reader', () => {
  it('is the Tab stop after the password, says what it will do, and toggles with Enter and Space', async () => {
    mockFetch(signedOut);
    const { user } = renderApp('/auth');

    const password = await screen.findByLabelText('Password', {}, { timeout: 10_000 });
    await user.click(password);
    await user.keyboard('secret123');
    await user.tab();

    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveFocus();
    // The name carries the state: no "pressed" beside it to contradict it.
    expect(toggle).not.toHaveAttribute('aria-pressed');

    await user.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAccessibleName('Hide password');
    expect(toggle).toHaveFocus();

    await user.keyboard(' ');
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAccessibleName('Show password');
    expect(password).toHaveValue('secret123');
  });

  it('toggles once on a screen reader’s activation (a bare click) and once on a pointer’s click', async () => {
    mockFetch(signedOut);
    const { user } = renderApp('/auth');

    const password = await screen.findByLabelText('Password', {}, { timeout: 10_000 });
    const toggle = screen.getByRole('button', { name: 'Show password' });
    // What assistive technology does: the button's default action, a click with no pointer down before it.
    fireEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAccessibleName('Hide password');
    fireEvent.click(toggle);
    expect(password).toHaveAttribute('type', 'password');

    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
  });

  it.each<[string, string, MockRoutes, string[]]>([
    ['register', '/auth?tab=register', signedOut, ['Password', 'Confirm Password']],
    ['reset password', '/reset-password?token=good', { ...signedOut, 'GET /api/verify-reset-token/good': { body: { valid: true } } }, ['New Password', 'Confirm New Password']],
    // The e-mail card asks for the current password too.
    ['settings', '/settings', { ...signedInAs(), ...freePlan }, ['Current Password', 'Current Password', 'New Password', 'Confirm New Password']],
  ])('follows every password field on %s', async (_screen, url, routes, labels) => {
    mockFetch(routes);
    const { user } = renderApp(url);

    await screen.findAllByLabelText(labels[0], {}, { timeout: 10_000 });
    const fields = [...new Set(labels)].flatMap((label) => screen.getAllByLabelText(label));
    expect(fields).toHaveLength(labels.length);
    for (const field of fields) {
      await user.click(field);
      await user.tab();
      expect(document.activeElement).toHaveAccessibleName('Show password');
      // The button after a field shows that field.
      await user.keyboard('{Enter}');
      expect(field).toHaveAttribute('type', 'text');
    }
  });
});
