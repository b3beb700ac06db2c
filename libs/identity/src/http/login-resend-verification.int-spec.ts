import { IdentityMessages } from '@plink/contracts';
import { SESSION_COOKIE } from '../sessions/session.store';
import { IdentityTestApp } from '../testing/identity-test-app';

/**
 * A creator who never verified, logged out, comes back to the login screen: the 403 is no dead end, the
 * screen resends the verification e-mail on the strength of the same e-mail and password.
 */
describe('identity: resending the verification e-mail from the login screen', () => {
  let t: IdentityTestApp;
  let n = 0;

  beforeAll(async () => {
    t = await IdentityTestApp.start({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    await t.startWorker();
  });

  afterAll(async () => {
    await t?.close();
  });

  const newIdentity = () => {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    return { username: `resend_${tag}`, email: `resend.${tag}@example.com`, password: 'first-secret' };
  };
  const verificationMails = async (email: string) => (await t.mailsTo(email)).filter((m) => m.kind === 'verification');

  async function registeredThenLoggedOut() {
    const who = newIdentity();
    const b = t.client();
    expect((await b.post('/api/register', who)).status).toBe(201);
    await t.mailFor(who.email, 'verification');
    expect((await b.post('/api/logout')).status).toBe(200);
    return who;
  }

  it('sends a new link that verifies the account (the old one stops working), then the login works', async () => {
    const who = await registeredThenLoggedOut();
    const b = t.client();
    expect(await b.post('/api/login', { email: who.email, password: who.password })).toMatchObject({
      status: 403,
      body: { message: IdentityMessages.verifyBeforeLogin },
    });
    const resent = await b.post('/api/login/resend-verification', { email: who.email, password: who.password });
    expect(resent).toMatchObject({ status: 200, body: { message: IdentityMessages.verificationSent } });
    // No session comes with it: the account still has to be verified to log in.
    expect(b.cookieHeader()).not.toContain(`${SESSION_COOKIE}=`);
    const second = await t.mailFor(who.email, 'verification', 1);
    const [first] = await verificationMails(who.email);
    expect((await b.post('/api/verify-email', { token: first.token })).status).toBe(400);
    expect((await b.post('/api/verify-email', { token: second.token })).status).toBe(200);
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(200);
  });

  it('keeps the verify prompt’s cooldown: a second resend within 30 s waits, and sends nothing', async () => {
    const who = await registeredThenLoggedOut();
    const b = t.client();
    expect((await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).status).toBe(200);
    const again = await b.post('/api/login/resend-verification', { email: who.email, password: who.password });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Please wait \d+ seconds before requesting another verification email\.$/);
    expect(again.headers.get('retry-after')).toMatch(/^\d+$/);
    // The sign-up's link and the one resend (the e-mail jobs reach the queue just after the answers).
    await t.mailFor(who.email, 'verification', 1);
    expect(await verificationMails(who.email)).toHaveLength(2);
  });

  it('proves the account as a login does: a wrong password is a 401 that counts toward the lockout, and sends nothing', async () => {
    const who = await registeredThenLoggedOut();
    const b = t.client();
    const wrong = await b.post('/api/login/resend-verification', { email: who.email, password: 'not-the-password' });
    expect(wrong).toMatchObject({ status: 401, body: { message: IdentityMessages.invalidCredentials } });
    const unknown = await b.post('/api/login/resend-verification', { email: `nobody.${who.email}`, password: who.password });
    expect(unknown).toMatchObject({ status: 401, body: { message: IdentityMessages.invalidCredentials } });
    for (let i = 0; i < 4; i += 1) await b.post('/api/login/resend-verification', { email: who.email, password: `wrong-${i}` });
    // Five failures in all: the pair now waits, for a login and for a resend alike.
    expect((await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).status).toBe(429);
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(429);
    expect(await verificationMails(who.email)).toHaveLength(1);
    expect((await b.post('/api/login/resend-verification', { email: 'not-an-email', password: 'x' })).status).toBe(400);
  });

  it('tells a verified account it is verified already', async () => {
    const who = await registeredThenLoggedOut();
    const b = t.client();
    const mail = await t.mailFor(who.email, 'verification');
    expect((await b.post('/api/verify-email', { token: mail.token })).status).toBe(200);
    expect(await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).toMatchObject({
      status: 400,
      body: { message: IdentityMessages.alreadyVerified },
    });
  });
});
