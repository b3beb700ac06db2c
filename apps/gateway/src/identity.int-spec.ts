import { Writable } from 'node:stream';
import { initLogger } from '@plink/observability';
import { SmtpCatcher, linkIn, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * The identity service end to end, as a user and an operator see it: the whole gateway with every
 * service's processors in-process, a real PostgreSQL database, Redis, and a real SMTP server.
 */
describe('identity, end to end', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  const logLines: string[] = [];

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
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
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });


  const userCount = async () => Number((await gateway.db.query('select count(*) from identity.users')).rows[0].count);
  const browser = (): TestBrowser => gateway.browser();
  let n = 0;
  const newIdentity = () => {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    return { username: `user_${tag}`, email: `User.${tag}@Example.com`, password: 'first-secret' };
  };
  const mailFor = (email: string, subject: RegExp) => smtp.waitFor((m: CaughtMail) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  async function registerVerified(b = browser()) {
    const who = newIdentity();
    expect((await b.post('/api/register', who)).status).toBe(201);
    const mail = await mailFor(who.email, /Verify/);
    expect((await b.post('/api/verify-email', { token: tokenOf(linkIn(mail, 'http://plink.test/verify-email?token=')) })).status).toBe(200);
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
    });
    const cookieLine = b.lastSetCookie.find((c) => c.startsWith('plink_session='))!;
    expect(cookieLine).toMatch(/HttpOnly/i);
    expect(cookieLine).toMatch(/SameSite=Lax/i);
    expect(cookieLine).not.toMatch(/Secure/i); // APP_ORIGIN is http here
    expect((await b.get('/api/user')).body).toMatchObject({ username: who.username, isVerified: false });

    const mail = await mailFor(who.email, /Verify your email for Plink/);
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.text).toContain('Plink');
    const link = linkIn(mail, 'http://plink.test/verify-email?token=');
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    const token = tokenOf(link);
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits, base64url
    const stored = (await gateway.db.query('select verification_token from identity.users where id = $1', [registered.body.id])).rows[0];
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
    const token = tokenOf(linkIn(await mailFor(who.email, /Verify/), 'http://plink.test/verify-email'));
    await gateway.db.query(`update identity.users set verification_token_expiry = now() - interval '1 minute' where lower(email) = lower($1)`, [who.email]);
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
    const noType = await fetch(`${gateway.origin}/api/login`, { method: 'POST', body: 'email=a@b.co', headers: { 'content-type': 'text/plain' } });
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
    const before = b.cookie('plink_session')!;
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(200);
    const after = b.cookie('plink_session')!;
    expect(after).not.toBe(before);
    const stale = browser();
    stale.setCookie('plink_session', before);
    expect((await stale.get('/api/user')).status).toBe(401);

    expect((await b.post('/api/logout')).status).toBe(200);
    expect(b.cookie('plink_session')).toBeUndefined();
    const replay = browser();
    replay.setCookie('plink_session', after);
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

    const mail = await mailFor(who.email, /Reset your Plink password/);
    const link = linkIn(mail, 'http://plink.test/reset-password?token=');
    const token = tokenOf(link);
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
    const token = tokenOf(linkIn(await mailFor(who.email, /Reset/), 'http://plink.test/reset-password'));
    await gateway.db.query(`update identity.users set reset_password_token_expiry = now() - interval '1 second' where lower(email) = lower($1)`, [who.email]);
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
    const first = tokenOf(linkIn(await mailFor(who.email, /Verify/), 'http://plink.test/verify-email'));
    expect((await browser().post('/api/resend-verification')).status).toBe(401);
    expect(await b.post('/api/resend-verification')).toMatchObject({ status: 200 });
    const again = await b.post('/api/resend-verification');
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/Please wait \d+ seconds/);
    await smtp.waitFor(() => smtp.mailsTo(who.email.toLowerCase()).length >= 2);
    const mails = smtp.mailsTo(who.email.toLowerCase());
    const second = tokenOf(linkIn(mails[mails.length - 1], 'http://plink.test/verify-email'));
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

  it('retries an e-mail while the SMTP server refuses it', async () => {
    smtp.failNext(2);
    const who = newIdentity();
    await browser().post('/api/register', who);
    const mail = await mailFor(who.email, /Verify/);
    expect(mail.subject).toMatch(/Plink/);
  });

  it('keeps e-mail addresses, passwords and tokens out of the logs', async () => {
    const who = await registerVerified();
    await browser().post('/api/forgot-password', { email: who.email });
    const token = tokenOf(linkIn(await mailFor(who.email, /Reset/), 'http://plink.test/reset-password'));
    await browser().get(`/api/verify-reset-token/${token}`);
    const all = logLines.join('');
    expect(all).toContain('"route":"/api/register"');
    expect(all).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    expect(all).not.toContain(who.password);
    expect(all).not.toContain(token.slice(0, 16));
  });

  it('reports health and serves JSON 404s for unknown API paths', async () => {
    const health = await browser().get('/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: 'up', redis: 'up' } } });
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(await browser().get('/api/no-such-call')).toMatchObject({ status: 404, body: { message: 'Not found' } });
  });
});
