import { screen } from '@testing-library/react';
import { makeUser, mockFetch, noPages, sentPayloads, signedOut } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function fillLogin(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('/auth login tab', () => {
  it('shows the shared schema messages under the fields and calls no API', async () => {
    const fetchMock = mockFetch(signedOut);
    const { user } = renderApp('/auth');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '123');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/login')).toHaveLength(0);
  });

  it('explains a 401 as invalid credentials', async () => {
    mockFetch({ ...signedOut, 'POST /api/login': { status: 401, body: { message: 'Invalid email or password' } } });
    const { user } = renderApp('/auth');

    await fillLogin(user, 'ana@example.com', 'wrong-password');

    expect(await findToast('Login failed')).toHaveTextContent('Invalid email or password. Please try again.');
  });

  it('asks for e-mail verification on a 403', async () => {
    mockFetch({
      ...signedOut,
      'POST /api/login': { status: 403, body: { message: 'Please verify your email before logging in.' } },
    });
    const { user } = renderApp('/auth');

    await fillLogin(user, 'ana@example.com', 'secret123');

    expect(await findToast('Email verification required')).toHaveTextContent(
      'Please verify your email before logging in.',
    );
  });

  it('offers a new verification link right there on a 403, with the 30 s cooldown', async () => {
    const fetchMock = mockFetch({
      ...signedOut,
      'POST /api/login': { status: 403, body: { message: 'Please verify your email before logging in.' } },
      'POST /api/login/resend-verification': { body: { message: 'Verification email sent' } },
    });
    const { user } = renderApp('/auth');

    await fillLogin(user, 'ana@example.com', 'secret123');
    const resend = await screen.findByRole('button', { name: 'Resend verification email' });
    expect(screen.getByText(/We sent a link to ana@example.com when you signed up/)).toBeInTheDocument();
    await user.click(resend);

    expect(await findToast('Verification email sent')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /^Wait \d+s to resend$/ })).toBeDisabled();
    expect(sentPayloads(fetchMock, 'POST', '/api/login/resend-verification')).toEqual([{ email: 'ana@example.com', password: 'secret123' }]);
  });

  it('shows the server message for other failures', async () => {
    mockFetch({ ...signedOut, 'POST /api/login': { status: 429, body: { message: 'Too many requests.' } } });
    const { user } = renderApp('/auth');

    await fillLogin(user, 'ana@example.com', 'secret123');

    expect(await findToast('Login failed')).toHaveTextContent('Too many requests.');
  });

  it('signs in, welcomes the user and opens the dashboard', async () => {
    const fetchMock = mockFetch({ ...signedOut, 'POST /api/login': { body: makeUser({ username: 'ana' }) }, ...noPages });
    const { user, location } = renderApp('/auth');

    await fillLogin(user, ' ana@example.com ', 'secret123');

    expect(await findToast('Login successful')).toHaveTextContent('Welcome back, ana!');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/dashboard');
    expect(sentPayloads(fetchMock, 'POST', '/api/login')).toEqual([
      { email: 'ana@example.com', password: 'secret123' },
    ]);
  });
});

describe('/auth register tab', () => {
  async function fillRegister(
    user: ReturnType<typeof renderApp>['user'],
    fields: { username: string; email: string; password: string; confirmPassword: string },
  ) {
    await user.type(await screen.findByLabelText('Username'), fields.username);
    await user.type(screen.getByLabelText('Email'), fields.email);
    await user.type(screen.getByLabelText('Password'), fields.password);
    await user.type(screen.getByLabelText('Confirm Password'), fields.confirmPassword);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it('opens with ?tab=register and flags a confirmation that does not match', async () => {
    const fetchMock = mockFetch(signedOut);
    const { user } = renderApp('/auth?tab=register');

    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    await fillRegister(user, { username: 'ana', email: 'ana@example.com', password: 'secret123', confirmPassword: 'secret124' });

    const confirm = screen.getByLabelText('Confirm Password');
    expect(confirm).toHaveAccessibleDescription("Passwords don't match");
    expect(screen.getByLabelText('Password')).not.toHaveAccessibleDescription();
    expect(sentPayloads(fetchMock, 'POST', '/api/register')).toHaveLength(0);
  });

  it('explains an already registered e-mail address', async () => {
    mockFetch({ ...signedOut, 'POST /api/register': { status: 409, body: { message: 'Email already exists' } } });
    const { user } = renderApp('/auth?tab=register');

    await fillRegister(user, { username: 'ana', email: 'ana@example.com', password: 'secret123', confirmPassword: 'secret123' });

    expect(await findToast('Registration failed')).toHaveTextContent(
      'This email address is already registered. Please use another email or try to login.',
    );
  });

  it('sends a new unverified account to the verify prompt', async () => {
    const fetchMock = mockFetch({
      ...signedOut,
      'POST /api/register': { status: 201, body: makeUser({ isVerified: false }) },
    });
    const { user, location } = renderApp('/auth?tab=register');

    await fillRegister(user, { username: 'ana', email: 'ana@example.com', password: 'secret123', confirmPassword: 'secret123' });

    expect(await screen.findByRole('heading', { name: 'Please verify your email' })).toBeInTheDocument();
    expect(location()).toBe('/verify-prompt');
    expect(sentPayloads(fetchMock, 'POST', '/api/register')).toEqual([
      { username: 'ana', email: 'ana@example.com', password: 'secret123' },
    ]);
  });
});

describe('friendly addresses of the sign-in screen', () => {
  it('opens the Login tab at /login', async () => {
    mockFetch(signedOut);
    const { location } = renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(location()).toBe('/auth');
  });

  it('opens the Register tab at /register and /signup, keeping the query', async () => {
    for (const path of ['/register', '/signup?template=photo-guide']) {
      mockFetch(signedOut);
      const { location, unmount } = renderApp(path);

      expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
      expect(location()).toBe(path === '/register' ? '/auth?tab=register' : '/auth?tab=register&template=photo-guide');
      unmount();
    }
  });
});
