import { IdentityMessages } from '@plink/contracts';
import { RateLimiter } from '@plink/redis';
import { eventually } from '@plink/testing';
import { IdentityTestApp, type TestClient } from '../testing/identity-test-app';

/**
 * Settings → Account as a creator uses it: changing the sign-in address (it applies only once the new
 * address confirms it; the old one is told both times) and the username (the registration's rules; the
 * pages service is told in one hop). The e-mails are read as identity records them for the e-mail worker.
 */
describe('identity: Settings → Account', () => {
  let t: IdentityTestApp;
  let n = 0;

  beforeAll(async () => {
    t = await IdentityTestApp.start({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** Waits until the pages service was sent `count` renames of the user (they reach its queue just after the answers). */
  const profileChangesReached = (userId: number, count: number) => eventually(async () => (await t.profileChangesOf(userId)).length >= count);
  const tag = () => {
    n += 1;
    return `${Date.now().toString(36)}${n}`;
  };

  async function creator(): Promise<{ username: string; email: string; password: string; id: number; b: TestClient }> {
    const s = tag();
    const who = { username: `acct_${s}`, email: `acct.${s}@example.com`, password: 'first-secret' };
    const b = t.client();
    const registered = await b.post('/api/register', who);
    expect(registered.status).toBe(201);
    const mail = await t.mailFor(who.email, 'verification');
    expect((await b.post('/api/verify-email', { token: mail.token })).status).toBe(200);
    return { ...who, id: registered.body.id, b };
  }

  describe('e-mail', () => {
    it('changes only when the link sent to the new address is opened, and tells the old address both times', async () => {
      const c = await creator();
      const newEmail = `New.${tag()}@Example.com`;
      const asked = await c.b.post('/api/account/email', { newEmail: `  ${newEmail} `, currentPassword: c.password });
      expect(asked).toMatchObject({ status: 200, body: { email: c.email, pendingEmail: newEmail } });

      // Nothing changed yet: the old address still signs in, the new one does not, and Settings shows the change pending.
      expect((await c.b.get('/api/user')).body).toMatchObject({ email: c.email, pendingEmail: newEmail });
      expect((await t.client().post('/api/login', { email: c.email, password: c.password })).status).toBe(200);
      expect((await t.client().post('/api/login', { email: newEmail, password: c.password })).status).toBe(401);
      const requested = await t.noticeFor(c.email, 'requested');
      expect(requested).toMatchObject({ to: { userId: c.id, email: c.email }, newEmail: 'N***@Example.com' });

      const link = await t.mailFor(newEmail, 'email-change-confirm');
      expect(link.to).toEqual({ userId: c.id, email: newEmail, username: c.username });
      // Opened in any browser (the mail may be read elsewhere): no session needed.
      expect(await t.client().post('/api/account/email/confirm', { token: link.token })).toMatchObject({
        status: 200,
        body: { success: true, message: IdentityMessages.emailChanged },
      });

      // The session that asked stays signed in and sees the new address.
      expect((await c.b.get('/api/user')).body).toMatchObject({ email: newEmail, pendingEmail: null, isVerified: true });
      expect((await t.client().post('/api/login', { email: newEmail, password: c.password })).status).toBe(200);
      expect((await t.client().post('/api/login', { email: c.email, password: c.password })).status).toBe(401);
      expect(await t.noticeFor(c.email, 'changed')).toMatchObject({ to: { email: c.email }, newEmail: 'N***@Example.com' });
      // The pages service, which keeps the address for the delivery e-mail's reply-to, is told once it applies.
      await profileChangesReached(c.id, 1);
      expect(await t.profileChangesOf(c.id)).toEqual([{ v: 1, userId: c.id, username: c.username, email: newEmail, version: 1 }]);

      // The link works once.
      expect(await t.client().post('/api/account/email/confirm', { token: link.token })).toMatchObject({
        status: 400,
        body: { message: IdentityMessages.invalidEmailChangeToken },
      });
    });

    it('refuses a wrong password (counted toward the login limits) and sends nothing', async () => {
      const c = await creator();
      const newEmail = `wrong.${tag()}@example.com`;
      const wrong = await c.b.post('/api/account/email', { newEmail, currentPassword: 'not-my-password' });
      expect(wrong).toMatchObject({ status: 400, body: { message: IdentityMessages.currentPasswordWrong } });
      for (let i = 0; i < 4; i += 1) await c.b.post('/api/account/email', { newEmail, currentPassword: `wrong-${i}` });
      // Five wrong passwords from this address: the pair waits, even with the right password, as a login would.
      expect((await c.b.post('/api/account/email', { newEmail, currentPassword: c.password })).status).toBe(429);
      expect((await c.b.get('/api/user')).body.pendingEmail).toBeNull();
      expect(await t.mailsTo(newEmail)).toEqual([]);
      expect(await t.noticesTo(c.email)).toEqual([]);
    });

    it('refuses an address another account has (any case), and the own one', async () => {
      const c = await creator();
      const other = await creator();
      expect(await c.b.post('/api/account/email', { newEmail: other.email.toUpperCase(), currentPassword: c.password })).toMatchObject({
        status: 409,
        body: { message: IdentityMessages.emailExists },
      });
      expect(await c.b.post('/api/account/email', { newEmail: c.email.toUpperCase(), currentPassword: c.password })).toMatchObject({
        status: 400,
        body: { message: IdentityMessages.sameEmail },
      });
      expect(await c.b.post('/api/account/email', { newEmail: 'not-an-address', currentPassword: c.password })).toMatchObject({
        status: 400,
        body: { message: IdentityMessages.invalidEmailAddress },
      });
      expect(await t.noticesTo(c.email)).toEqual([]);
    });

    it('answers 409 at confirmation when another account took the address meanwhile', async () => {
      const c = await creator();
      const wanted = `wanted.${tag()}@example.com`;
      expect((await c.b.post('/api/account/email', { newEmail: wanted, currentPassword: c.password })).status).toBe(200);
      const link = await t.mailFor(wanted, 'email-change-confirm');
      expect((await t.client().post('/api/register', { username: `taker_${tag()}`, email: wanted, password: 'first-secret' })).status).toBe(201);
      expect(await t.client().post('/api/account/email/confirm', { token: link.token })).toMatchObject({ status: 409, body: { message: IdentityMessages.emailExists } });
      expect((await c.b.get('/api/user')).body.email).toBe(c.email);
    });

    it('waits 30 s between requests; a newer request replaces the older link; cancel stops the link', async () => {
      const c = await creator();
      const first = `first.${tag()}@example.com`;
      const second = `second.${tag()}@example.com`;
      expect((await c.b.post('/api/account/email', { newEmail: first, currentPassword: c.password })).status).toBe(200);
      const again = await c.b.post('/api/account/email', { newEmail: second, currentPassword: c.password });
      expect(again.status).toBe(429);
      expect(again.body.message).toMatch(/^Please wait \d+ seconds before requesting another email change\.$/);
      expect(again.headers.get('retry-after')).toMatch(/^\d+$/);

      // Past the cooldown (its key dropped, as 30 s would), the newer request's link is the only one that works.
      await t.app.get(RateLimiter).releaseCooldown('email-change', String(c.id));
      expect((await c.b.post('/api/account/email', { newEmail: second, currentPassword: c.password })).body.pendingEmail).toBe(second);
      const firstLink = await t.mailFor(first, 'email-change-confirm');
      const secondLink = await t.mailFor(second, 'email-change-confirm');
      expect((await t.client().post('/api/account/email/confirm', { token: firstLink.token })).status).toBe(400);

      expect(await c.b.post('/api/account/email/cancel')).toMatchObject({ status: 200, body: { email: c.email, pendingEmail: null } });
      expect((await t.client().post('/api/account/email/confirm', { token: secondLink.token })).status).toBe(400);
      expect((await c.b.get('/api/user')).body).toMatchObject({ email: c.email, pendingEmail: null });
      expect(await c.b.post('/api/account/email/cancel')).toMatchObject({ status: 400, body: { message: IdentityMessages.noPendingEmailChange } });
    });

    it('lets an expired link go: it no longer confirms, and the change no longer shows as pending', async () => {
      const c = await creator();
      const newEmail = `late.${tag()}@example.com`;
      expect((await c.b.post('/api/account/email', { newEmail, currentPassword: c.password })).status).toBe(200);
      const link = await t.mailFor(newEmail, 'email-change-confirm');
      await t.db.query(`update identity.users set email_change_token_expiry = now() - interval '1 minute' where id = $1`, [c.id]);
      expect(await t.client().post('/api/account/email/confirm', { token: link.token })).toMatchObject({
        status: 400,
        body: { message: IdentityMessages.invalidEmailChangeToken },
      });
      expect((await c.b.get('/api/user')).body).toMatchObject({ email: c.email, pendingEmail: null });
    });

    it('stops a password-reset link sent to the old address once the change is confirmed', async () => {
      const c = await creator();
      expect((await t.client().post('/api/forgot-password', { email: c.email })).status).toBe(200);
      const reset = await t.mailFor(c.email, 'password-reset');
      const newEmail = `moved.${tag()}@example.com`;
      expect((await c.b.post('/api/account/email', { newEmail, currentPassword: c.password })).status).toBe(200);
      const link = await t.mailFor(newEmail, 'email-change-confirm');
      expect((await t.client().post('/api/account/email/confirm', { token: link.token })).status).toBe(200);
      expect((await t.client().post('/api/reset-password', { token: reset.token, password: 'taken-over' })).status).toBe(400);
    });

    it('needs a session to ask or cancel', async () => {
      expect((await t.client().post('/api/account/email', { newEmail: 'x@example.com', currentPassword: 'first-secret' })).status).toBe(401);
      expect((await t.client().post('/api/account/email/cancel')).status).toBe(401);
    });
  });

  describe('username', () => {
    it('changes under the registration rules and tells the pages service, one message per change in order', async () => {
      const c = await creator();
      const renamed = `Renamed_${tag()}`;
      const answer = await c.b.post('/api/account/username', { username: ` ${renamed} ` });
      expect(answer).toMatchObject({ status: 200, body: { id: c.id, username: renamed, email: c.email } });
      expect((await c.b.get('/api/user')).body.username).toBe(renamed);
      // Only the case changes: still the owner's own name, allowed.
      expect((await c.b.post('/api/account/username', { username: renamed.toLowerCase() })).body.username).toBe(renamed.toLowerCase());
      await profileChangesReached(c.id, 2);
      expect(await t.profileChangesOf(c.id)).toEqual([
        { v: 1, userId: c.id, username: renamed, email: c.email, version: 1 },
        { v: 1, userId: c.id, username: renamed.toLowerCase(), email: c.email, version: 2 },
      ]);
      // The same name again changes nothing and tells nobody.
      expect((await c.b.post('/api/account/username', { username: renamed.toLowerCase() })).status).toBe(200);
      expect(await t.profileChangesOf(c.id)).toHaveLength(2);
    });

    it("refuses a name another account has in any case, and a name the registration would refuse", async () => {
      const c = await creator();
      const other = await creator();
      expect(await c.b.post('/api/account/username', { username: other.username.toUpperCase() })).toMatchObject({
        status: 409,
        body: { message: IdentityMessages.usernameExists },
      });
      expect(await c.b.post('/api/account/username', { username: 'ab' })).toMatchObject({ status: 400, body: { message: IdentityMessages.usernameLength } });
      expect(await c.b.post('/api/account/username', { username: 'has space' })).toMatchObject({
        status: 400,
        body: { message: IdentityMessages.usernameCharacters },
      });
      expect((await c.b.get('/api/user')).body.username).toBe(c.username);
      expect(await t.profileChangesOf(c.id)).toEqual([]);
    });

    it('gives a name asked for by two accounts at once to one of them only', async () => {
      const [a, b] = await Promise.all([creator(), creator()]);
      const wanted = `race_${tag()}`;
      const answers = await Promise.all([a.b.post('/api/account/username', { username: wanted }), b.b.post('/api/account/username', { username: wanted.toUpperCase() })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const rows = await t.db.query('select id from identity.users where lower(username) = lower($1)', [wanted]);
      expect(rows.rowCount).toBe(1);
      const winner = rows.rows[0].id as number;
      await profileChangesReached(winner, 1);
      expect(await t.profileChangesOf(winner === a.id ? b.id : a.id)).toEqual([]);
    });
  });
});
