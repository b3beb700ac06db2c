import { IdentityMessages } from '@plink/contracts';
import { SmtpCatcher, linkIn, type CaughtMail } from '@plink/testing';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * A creator who never verified, logged out, comes back to the login screen: the 403 is no dead end, the
 * screen resends the verification e-mail on the strength of the same e-mail and password.
 */
describe('resending the verification e-mail from the login screen', () => {
  let gateway: TestGateway;
  let smtp: SmtpCatcher;
  let n = 0;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    gateway = await startTestGateway({ SMTP_URL: smtp.url, PLINK_WORKERS: 'all', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });

  afterAll(async () => {
    await gateway?.close();
    await smtp?.stop();
  });

  const newIdentity = () => {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    return { username: `resend_${tag}`, email: `resend.${tag}@example.com`, password: 'first-secret' };
  };
  const mails = (email: string) => smtp.mails.filter((m: CaughtMail) => m.to.includes(email) && /Verify/.test(m.subject));
  const tokenOf = (mail: CaughtMail) => new URL(linkIn(mail, 'http://plink.test/verify-email?token=')).searchParams.get('token')!;

  async function registeredThenLoggedOut() {
    const who = newIdentity();
    const b = gateway.browser();
    expect((await b.post('/api/register', who)).status).toBe(201);
    await smtp.waitFor((m: CaughtMail) => m.to.includes(who.email) && /Verify/.test(m.subject));
    expect((await b.post('/api/logout')).status).toBe(200);
    return who;
  }

  it('sends a new link that verifies the account (the old one stops working), then the login works', async () => {
    const who = await registeredThenLoggedOut();
    const b = gateway.browser();
    expect(await b.post('/api/login', { email: who.email, password: who.password })).toMatchObject({
      status: 403,
      body: { message: IdentityMessages.verifyBeforeLogin },
    });
    const resent = await b.post('/api/login/resend-verification', { email: who.email, password: who.password });
    expect(resent).toMatchObject({ status: 200, body: { message: IdentityMessages.verificationSent } });
    // No session comes with it: the account still has to be verified to log in.
    expect(b.cookie('plink_session')).toBeUndefined();
    await smtp.waitFor(() => mails(who.email).length === 2);
    const [first, second] = mails(who.email);
    expect((await b.post('/api/verify-email', { token: tokenOf(first) })).status).toBe(400);
    expect((await b.post('/api/verify-email', { token: tokenOf(second) })).status).toBe(200);
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(200);
  });

  it('keeps the verify prompt’s cooldown: a second resend within 30 s waits, and sends nothing', async () => {
    const who = await registeredThenLoggedOut();
    const b = gateway.browser();
    expect((await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).status).toBe(200);
    const again = await b.post('/api/login/resend-verification', { email: who.email, password: who.password });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Please wait \d+ seconds before requesting another verification email\.$/);
    expect(again.headers.get('retry-after')).toMatch(/^\d+$/);
    await smtp.waitFor(() => mails(who.email).length === 2);
    expect(mails(who.email)).toHaveLength(2);
  });

  it('proves the account as a login does: a wrong password is a 401 that counts toward the lockout, and sends nothing', async () => {
    const who = await registeredThenLoggedOut();
    const b = gateway.browser();
    const wrong = await b.post('/api/login/resend-verification', { email: who.email, password: 'not-the-password' });
    expect(wrong).toMatchObject({ status: 401, body: { message: IdentityMessages.invalidCredentials } });
    const unknown = await b.post('/api/login/resend-verification', { email: `nobody.${who.email}`, password: who.password });
    expect(unknown).toMatchObject({ status: 401, body: { message: IdentityMessages.invalidCredentials } });
    for (let i = 0; i < 4; i += 1) await b.post('/api/login/resend-verification', { email: who.email, password: `wrong-${i}` });
    // Five failures in all: the pair now waits, for a login and for a resend alike.
    expect((await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).status).toBe(429);
    expect((await b.post('/api/login', { email: who.email, password: who.password })).status).toBe(429);
    expect(mails(who.email)).toHaveLength(1);
    const invalid = await b.post('/api/login/resend-verification', { email: 'not-an-email', password: 'x' });
    expect(invalid.status).toBe(400);
  });

  it('tells a verified account it is verified already', async () => {
    const who = await registeredThenLoggedOut();
    const b = gateway.browser();
    const [mail] = mails(who.email);
    expect((await b.post('/api/verify-email', { token: tokenOf(mail) })).status).toBe(200);
    expect(await b.post('/api/login/resend-verification', { email: who.email, password: who.password })).toMatchObject({
      status: 400,
      body: { message: IdentityMessages.alreadyVerified },
    });
  });
});
