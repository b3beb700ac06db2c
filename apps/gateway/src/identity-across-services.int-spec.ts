import { Writable } from 'node:stream';
import { initLogger } from '@plink/observability';
import { SmtpCatcher, linkIn, type CaughtMail } from '@plink/testing';
import type { TestBrowser } from './testing/http-client';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/**
 * Identity where it meets the rest of the gateway (its own calls are tested in libs/identity): its account
 * e-mails as the notifications service sends them (to a real SMTP server, again while it refuses), the whole
 * gateway's logs kept free of addresses, passwords and tokens, and the gateway's health and JSON 404s.
 */
describe('identity, across the services', () => {
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

  const browser = (): TestBrowser => gateway.browser();
  let n = 0;
  const newIdentity = () => {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    return { username: `user_${tag}`, email: `User.${tag}@Example.com`, password: 'first-secret' };
  };
  const mailFor = (email: string, subject: RegExp) => smtp.waitFor((m: CaughtMail) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  it('e-mails the verification link, whose token verifies the account, and the reset link', async () => {
    const b = browser();
    const who = newIdentity();
    expect((await b.post('/api/register', who)).status).toBe(201);
    const mail = await mailFor(who.email, /Verify your email for Plink/);
    expect(mail.raw).toMatch(/multipart\/alternative/);
    expect(mail.text).toContain('Plink');
    const link = linkIn(mail, 'http://plink.test/verify-email?token=');
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    expect(await b.post('/api/verify-email', { token: tokenOf(link) })).toMatchObject({ status: 200, body: { success: true } });
    expect((await b.get('/api/user')).body.isVerified).toBe(true);

    expect((await browser().post('/api/forgot-password', { email: who.email })).status).toBe(200);
    const reset = await mailFor(who.email, /Reset your Plink password/);
    const token = tokenOf(linkIn(reset, 'http://plink.test/reset-password?token='));
    expect(await browser().get(`/api/verify-reset-token/${token}`)).toMatchObject({ status: 200, body: { valid: true } });
  });

  it('retries an e-mail while the SMTP server refuses it', async () => {
    smtp.failNext(2);
    const who = newIdentity();
    await browser().post('/api/register', who);
    const mail = await mailFor(who.email, /Verify/);
    expect(mail.subject).toMatch(/Plink/);
  });

  it('keeps e-mail addresses, passwords and tokens out of the logs', async () => {
    const b = browser();
    const who = newIdentity();
    await b.post('/api/register', who);
    await b.post('/api/verify-email', { token: tokenOf(linkIn(await mailFor(who.email, /Verify/), 'http://plink.test/verify-email')) });
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
