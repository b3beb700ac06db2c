import { Writable } from 'node:stream';
import { initLogger } from '@plink/observability';
import { SESSION_COOKIE } from '../sessions/session.store';
import { IdentityTestApp, type TestClient } from '../testing/identity-test-app';

/**
 * The identity service as a user sees it (see IdentityTestApp): registering, verifying, logging in and out,
 * resetting and changing the password. Its e-mails are read as it records them for the e-mail worker; the
 * e-mails as sent (and sent again while the SMTP server refuses), and the whole gateway's logs, are tested in
 * the gateway.
 */
describe('identity: accounts and sessions', () => {
  let t: IdentityTestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    initLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    });
    t = await IdentityTestApp.start({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOG_LEVEL: 'info' });
    await t.startWorker();
  });

  afterAll(async () => {
    await t?.close();
  });

  const userCount = () => t.userCount();
  const browser = (): TestClient => t.client();
  let n = 0;
  const newIdentity = () => {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    return { username: `user_${tag}`, email: `User.${tag}@Example.com`, password: 'first-secret' };
  };
  /** The session cookie's value in a client's jar, if any. */
  const sessionOf = (client: TestClient) => new RegExp(`(?:^|; )${SESSION_COOKIE}=([^;]+)`).exec(client.cookieHeader())?.[1];
  const withSession = (session: string) => browser().setCookies(`${SESSION_COOKIE}=${session}`);

  async function registerVerified(b = browser()) {
    const who = newIdentity();
    expect((await b.post('/api/register', who)).status).toBe(201);
    const mail = await t.mailFor(who.email, 'verification');
    expect((await b.post('/api/verify-email', { token: mail.token })).status).toBe(200);
    return { ...who, browser: b };
  }

  it('registers, e-mails a verification link, verifies, and only then lets the user log in', async () => {
    const b = browser();
    const who = newIdentity();
    const registered = await b.post('/api/register', who);
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.any(Number),
      username: who.username,
      email: who.email,
      isVerified: false,
      isPremium: false,
      createdAt: expect.any(String),
      pendingEmail: null,
    });
    const cookieLine = registered.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/SameSite=Lax/i);
    expect(cookieLine).not.toMatch(/Secure/i); // APP_ORIGIN is http here
    expect((await b.get('/api/user')).body).toMatchObject({ username: who.username, isVerified: false });

    // Addressed to the account, with the link's token (sealed in the job).
    const mail = await t.mailFor(who.email, 'verification');
    expect(mail.to).toEqual({ userId: registered.body.id, email: who.email, username: who.username });
    const token = mail.token;
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits, base64url
    const stored = (await t.db.query('select verification_token from identity.users where id = $1', [registered.body.id])).rows[0];
    expect(stored.verification_token).not.toContain(token); // only its hash is stored

    const stranger = browser();
    expect(await stranger.post('/api/login', { email: who.email, password: who.password })).toMatchObject({
      status: 403,
      body: { message: 'Please verify your email before logging in.' },
    });

    expect(await b.post('/api/verify-email', { token })).toMatchObject({ status: 200, body: { success: true } });
    expect((await b.get('/api/user')).body.isVerified).toBe(true);
    expect(await b.post('/api/verify-email', { token })).toMatchObject({ status: 400 }); // single use

    const login = await stranger.post('/api/login', { email: who.email.toUpperCase(), password: who.password });
    expect(login).toMatchObject({ status: 200, body: { username: who.username, isVerified: true } });
    expect(JSON.stringify(login.body)).not.toMatch(/password|token|\$argon2/i);
  });

  it("answers 'Missing verification token' without a token and refuses an expired one", async () => {
    const b = browser();
    expect(await b.post('/api/verify-email', {})).toMatchObject({ status: 400, body: { message: 'Missing verification token' } });
    const who = newIdentity();
    await b.post('/api/register', who);
    const { token } = await t.mailFor(who.email, 'verification');
    await t.db.query(`update identity.users set verification_token_expiry = now() - interval '1 minute' where lower(email) = lower($1)`, [who.email]);
    expect((await b.post('/api/verify-email', { token })).status).toBe(400);
    expect((await b.get('/api/user')).body.isVerified).toBe(false);
  });

  it('refuses a taken e-mail (any case) or username with 409 and a message saying which, storing nothing', async () => {
    const first = newIdentity();
    expect((await browser().post('/api/register', first)).status).toBe(201);
    const before = await userCount();
    expect(await browser().post('/api/register', { ...newIdentity(), email: first.email.toUpperCase() })).toMatchObject({
      status: 409,
      body: { message: 'Email already exists' },
    });
    expect(await browser().post('/api/register', { ...newIdentity(), username: first.username.toUpperCase() })).toMatchObject({
      status: 409,
      body: { message: 'Username already exists' },
    });
    // Ten racing registrations of one address: exactly one account.
    const racer = newIdentity();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => browser().post('/api/register', { ...racer, username: `${racer.username.slice(0, 20)}_${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.message === 'Email already exists')).toBe(true);
    expect(await userCount()).toBe(before + 1);
  });

  it('answers bad input with a 4xx JSON message, never a 5xx, and stores nothing', async () => {
    const before = await userCount();
    const b = browser();
    const cases: [unknown, number, string?][] = [
      ['{not json', 400, 'Malformed JSON in request body'],
      [{ username: 'abc', email: 'not-an-email', password: 'secret1' }, 400, 'Please enter a valid email'],
      [{ username: 'abc', email: 'a@b.co', password: '12345' }, 400, 'Password must be at least 6 characters'],
      [{ username: 'ab', email: 'a@b.co', password: 'secret1' }, 400, 'Username must be 3 to 30 characters'],
      [{ username: 'x'.repeat(10_000), email: 'a@b.co', password: 'secret1' }, 400, 'Username must be 3 to 30 characters'],
      [{ username: 'bad name!', email: 'a@b.co', password: 'secret1' }, 400, 'Username can only contain letters, numbers, underscores and hyphens'],
      [{ username: 42, email: ['a@b.co'], password: { x: 1 } }, 400],
      [{}, 400],
      ['[]', 400],
      ['null', 400],
      [`{"username":"abc","email":"a@b.co","password":"${'p'.repeat(1_000_000)}"}`, 413, 'Request body is too large'],
    ];
    for (const [body, status, message] of cases) {
      const res = await b.post('/api/register', body);
      expect({ body: String(body).slice(0, 40), status: res.status }).toEqual({ body: String(body).slice(0, 40), status });
      expect(typeof res.body.message).toBe('string');
      if (message) expect(res.body.message).toBe(message);
    }
    const noType = await fetch(`${t.origin}/api/login`, { method: 'POST', body: 'email=a@b.co', headers: { 'content-type': 'text/plain' } });
    expect(noType.status).toBeGreaterThanOrEqual(400);
    expect(noType.status).toBeLessThan(500);
    expect(await b.post('/api/login', { email: 'a@b.co', password: '123' })).toMatchObject({
      status: 400,
      body: { message: 'Password must be at least 6 characters' },
    });
    expect(await b.post('/api/forgot-password', { email: 'nope' })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid email address' },
    });
    expect(await userCount()).toBe(before);
  });

  it('answers 401 alike for a wrong password and an unknown e-mail, and makes the same e-mail and address wait after 5 wrong passwords', async () => {
    const who = await registerVerified();
    const b = browser();
    const wrong = await b.post('/api/login', { email: who.email, password: 'wrong-password' });
    const unknown = await b.post('/api/login', { email: `nobody${who.email}`, password: 'wrong-password' });
    expect(wrong).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    expect(unknown).toMatchObject({ status: 401, body: wrong.body });
    for (let i = 0; i < 4; i += 1) expect((await b.post('/api/login', { email: who.email, password: `wrong-${i}` })).status).toBe(401);
    // Five wrong passwords from this address: it waits a second before its next try, right or wrong.
    const waiting = await b.post('/api/login', { email: who.email, password: who.password });
    expect(waiting).toMatchObject({ status: 429, body: { message: 'Too many failed login attempts. Please wait 1 second and try again.' } });
    expect(waiting.headers.get('retry-after')).toBe('1');
    // The wait is per e-mail and address: another user from the same address logs in fine.
    const other = await registerVerified();
    expect((await browser().post('/api/login', { email: other.email, password: other.password })).status).toBe(200);
  });

  it('rotates the session on login and ends it on logout', async () => {
    const who = await registerVerified();
    const b = who.browser;
    const before = sessionOf(b)!;
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(200);
    const after = sessionOf(b)!;
    expect(after).not.toBe(before);
    const stale = withSession(before);
    expect((await stale.get('/api/user')).status).toBe(401);

    expect((await b.post('/api/logout')).status).toBe(200);
    expect(sessionOf(b)).toBeUndefined();
    const replay = withSession(after);
    expect(await replay.get('/api/user')).toMatchObject({ status: 401, body: { message: 'Not authenticated' } });
  });

  it('resets a forgotten password through the e-mailed link, once, and ends the other sessions', async () => {
    const who = await registerVerified();
    const elsewhere = browser();
    await elsewhere.post('/api/login', { email: who.email, password: who.password });
    expect((await elsewhere.get('/api/user')).status).toBe(200);

    const anon = browser();
    const unknownAnswer = await anon.post('/api/forgot-password', { email: `ghost-${who.email}` });
    const knownAnswer = await anon.post('/api/forgot-password', { email: who.email });
    expect(knownAnswer).toMatchObject({ status: 200 });
    expect(unknownAnswer.body).toEqual(knownAnswer.body);

    const { token } = await t.mailFor(who.email, 'password-reset');
    expect(await t.mailsTo(`ghost-${who.email}`)).toEqual([]);
    expect(await anon.get(`/api/verify-reset-token/${token}`)).toMatchObject({ status: 200, body: { valid: true } });
    expect(await anon.get('/api/verify-reset-token/not-a-real-token')).toMatchObject({ status: 200, body: { valid: false } });

    expect(await anon.post('/api/reset-password', { token, password: '123' })).toMatchObject({
      status: 400,
      body: { message: 'Password must be at least 6 characters' },
    });
    expect(await anon.post('/api/reset-password', { token, password: 'brand-new-secret' })).toMatchObject({ status: 200, body: { success: true } });
    expect((await anon.post('/api/reset-password', { token, password: 'another-secret' })).status).toBe(400);
    expect((await anon.get(`/api/verify-reset-token/${token}`)).body.valid).toBe(false);

    expect((await elsewhere.get('/api/user')).status).toBe(401);
    expect((await who.browser.get('/api/user')).status).toBe(401);
    expect((await anon.post('/api/login', { email: who.email, password: who.password })).status).toBe(401);
    expect((await anon.post('/api/login', { email: who.email, password: 'brand-new-secret' })).status).toBe(200);
  });

  it('refuses a reset link after its hour', async () => {
    const who = await registerVerified();
    await browser().post('/api/forgot-password', { email: who.email });
    const { token } = await t.mailFor(who.email, 'password-reset');
    await t.db.query(`update identity.users set reset_password_token_expiry = now() - interval '1 second' where lower(email) = lower($1)`, [who.email]);
    expect((await browser().get(`/api/verify-reset-token/${token}`)).body.valid).toBe(false);
    expect(await browser().post('/api/reset-password', { token, password: 'brand-new-secret' })).toMatchObject({
      status: 400,
      body: { message: 'Invalid or expired reset token' },
    });
  });

  it('resends the verification e-mail at most every 30 s, and the new link replaces the old one', async () => {
    const b = browser();
    const who = newIdentity();
    await b.post('/api/register', who);
    const first = (await t.mailFor(who.email, 'verification')).token;
    expect((await browser().post('/api/resend-verification')).status).toBe(401);
    expect(await b.post('/api/resend-verification')).toMatchObject({ status: 200 });
    const again = await b.post('/api/resend-verification');
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/Please wait \d+ seconds/);
    const second = (await t.mailFor(who.email, 'verification', 1)).token;
    expect(second).not.toBe(first);
    expect((await b.post('/api/verify-email', { token: first })).status).toBe(400);
    expect((await b.post('/api/verify-email', { token: second })).status).toBe(200);
    expect(await b.post('/api/resend-verification')).toMatchObject({ status: 400, body: { message: 'Your email is already verified' } });
  });

  it('changes the password in settings after checking the current one', async () => {
    const who = await registerVerified();
    const other = browser();
    await other.post('/api/login', { email: who.email, password: who.password });
    const b = who.browser;
    expect((await browser().post('/api/update-password', { currentPassword: 'x', newPassword: 'long-enough' })).status).toBe(401);
    expect(await b.post('/api/update-password', { currentPassword: who.password, newPassword: 'short' })).toMatchObject({
      status: 400,
      body: { message: 'New password must be at least 8 characters' },
    });
    expect(await b.post('/api/update-password', { currentPassword: '', newPassword: 'long-enough' })).toMatchObject({
      status: 400,
      body: { message: 'Current password is required' },
    });
    expect(await b.post('/api/update-password', { currentPassword: 'not-my-password', newPassword: 'long-enough' })).toMatchObject({
      status: 400,
      body: { message: 'Current password is incorrect' },
    });
    expect((await b.post('/api/update-password', { currentPassword: who.password, newPassword: 'long-enough' })).status).toBe(200);
    expect((await b.get('/api/user')).status).toBe(200);
    expect((await other.get('/api/user')).status).toBe(401);
    expect((await browser().post('/api/login', { email: who.email, password: 'long-enough' })).status).toBe(200);
  });

  it('keeps e-mail addresses, passwords and tokens out of the logs', async () => {
    const who = await registerVerified();
    await browser().post('/api/forgot-password', { email: who.email });
    const { token } = await t.mailFor(who.email, 'password-reset');
    await browser().get(`/api/verify-reset-token/${token}`);
    const all = logLines.join('');
    expect(all).toContain('"route":"/api/register"');
    expect(all).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    expect(all).not.toContain(who.password);
    expect(all).not.toContain(token.slice(0, 16));
  });

});
