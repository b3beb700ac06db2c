import { screen } from '@testing-library/react';
import { mockFetch, signedOut } from '../../../test/fetch-mock';
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
    const [toggle] = screen.getAllByRole('button', { name: 'Toggle password visibility' });
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('secret123');
  });
});
