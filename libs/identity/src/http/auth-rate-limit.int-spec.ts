import { IdentityTestApp, type TestClient } from '../testing/identity-test-app';

/** The identity calls' limits per address (see IdentityTestApp). */
describe('per-address limits on the auth calls', () => {
  let t: IdentityTestApp;
  let b: TestClient;

  beforeAll(async () => {
    t = await IdentityTestApp.start({ AUTH_RATE_LIMIT_PER_MINUTE: '100' });
    b = t.client();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lets an office make 100 requests a minute from one address, then answers 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 100; i += 1) answers.push((await b.post('/api/forgot-password', { email: `someone${i}@example.com` })).status);
    expect(answers.every((s) => s === 200)).toBe(true);
    const limited = await b.post('/api/forgot-password', { email: 'one-more@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many requests. Please slow down and try again in a minute.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Each call has its own budget: login still answers normally.
    expect((await b.post('/api/login', { email: 'nobody@example.com', password: 'whatever1' })).status).toBe(401);
  });
});

/**
 * Wrong passwords are counted per (e-mail, address) and per address, never per account alone, so
 * a stranger cannot keep the owner out. TRUST_PROXY lets the test speak from many addresses
 * through X-Forwarded-For, as a gateway behind a load balancer sees them.
 */
describe('login throttling by e-mail and address, and by address', () => {
  let t: IdentityTestApp;
  let n = 0;

  beforeAll(async () => {
    t = await IdentityTestApp.start({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const login = (from: string, email: string, password: string) =>
    t.client({ 'x-forwarded-for': from }).post('/api/login', { email, password });

  async function owner() {
    n += 1;
    const tag = `${Date.now().toString(36)}${n}`;
    const who = { username: `owner_${tag}`, email: `owner.${tag}@example.com`, password: 'owner-secret-1' };
    const registered = await t.client({ 'x-forwarded-for': '192.0.2.1' }).post('/api/register', who);
    expect(registered.status).toBe(201);
    await t.db.query('update identity.users set is_verified = true where id = $1', [registered.body.id]);
    return who;
  }

  it("lets the owner in from another address at once after a stranger's 100 wrong passwords", async () => {
    const who = await owner();
    const stranger = '203.0.113.10';
    const answers: number[] = [];
    for (let i = 0; i < 100; i += 1) answers.push((await login(stranger, who.email, `guess-${i}`)).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.every((s) => s === 401 || s === 429)).toBe(true);
    // The stranger's pair soon waits: most of his tries are refused before any password check.
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(85);
    // Even the right password from the stranger's address waits now…
    expect((await login(stranger, who.email, who.password)).status).toBe(429);
    // …but the owner, from home, gets in at once (no 429 to wait out).
    const ownLogin = await login('198.51.100.20', who.email, who.password);
    expect(ownLogin).toMatchObject({ status: 200, body: { username: who.username } });
  }, 60_000);

  it('does not lock the account when 100 wrong passwords come from 20 addresses', async () => {
    const who = await owner();
    const answers: number[] = [];
    for (let a = 0; a < 20; a += 1) {
      for (let i = 0; i < 5; i += 1) answers.push((await login(`203.0.113.${100 + a}`, who.email, `spray-${a}-${i}`)).status);
    }
    expect(answers.filter((s) => s === 401)).toHaveLength(100);
    expect((await login('198.51.100.21', who.email, who.password)).status).toBe(200);
  }, 60_000);

  it('makes one pair wait 1 s, then 2 s, with 429 and Retry-After; a right password clears the pair', async () => {
    const who = await owner();
    const from = '203.0.113.50';
    for (let i = 0; i < 5; i += 1) expect((await login(from, who.email, `wrong-${i}`)).status).toBe(401);
    const first = await login(from, who.email, who.password);
    expect(first).toMatchObject({ status: 429, body: { message: 'Too many failed login attempts. Please wait 1 second and try again.' } });
    expect(first.headers.get('retry-after')).toBe('1');

    await sleep(1_100);
    expect((await login(from, who.email, 'wrong-again')).status).toBe(401);
    const second = await login(from, who.email, who.password);
    expect(second).toMatchObject({ status: 429, body: { message: 'Too many failed login attempts. Please wait 2 seconds and try again.' } });
    expect(second.headers.get('retry-after')).toBe('2');

    await sleep(2_100);
    expect((await login(from, who.email, who.password)).status).toBe(200);
    // Cleared: the pair has its five free tries again (without the clearing, a seventh failure would wait 4 s).
    for (let i = 0; i < 5; i += 1) expect((await login(from, who.email, `after-${i}`)).status).toBe(401);
    expect((await login(from, who.email, who.password)).status).toBe(429);
  }, 60_000);

  it('refuses every login from an address after 50 wrong passwords over all accounts, for 15 minutes', async () => {
    const who = await owner();
    const prober = '203.0.113.77';
    const answers: number[] = [];
    for (let i = 0; i < 50; i += 1) answers.push((await login(prober, `probe${i}.${n}@example.com`, 'not-the-password')).status);
    expect(answers.filter((s) => s === 401)).toHaveLength(50);
    const capped = await login(prober, who.email, who.password);
    expect(capped).toMatchObject({ status: 429, body: { message: 'Too many failed login attempts. Please wait 15 minutes and try again.' } });
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(880);
    // Other addresses are not affected.
    expect((await login('198.51.100.22', who.email, who.password)).status).toBe(200);
  }, 60_000);
});

/** Each registration answer says whether an e-mail has an account, so one address gets few an hour. */
describe('registrations per address', () => {
  let t: IdentityTestApp;

  beforeAll(async () => {
    t = await IdentityTestApp.start({ TRUST_PROXY: '1', REGISTRATIONS_PER_ADDRESS_PER_HOUR: '3' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const register = (from: string, i: number) =>
    t.client({ 'x-forwarded-for': from }).post('/api/register', { username: `reg_${i}`, email: `reg.${i}@example.com`, password: 'secret-123' });
  const userCount = () => t.userCount();

  it('takes 3 registrations an hour from one address, then answers 429 with Retry-After and stores nothing', async () => {
    expect((await register('203.0.113.5', 1)).status).toBe(201);
    expect((await register('203.0.113.5', 2)).status).toBe(201);
    // A taken e-mail counts too: it is exactly the answer an enumerator wants.
    const taken = await t.client({ 'x-forwarded-for': '203.0.113.5' }).post('/api/register', { username: 'reg_other', email: 'reg.1@example.com', password: 'secret-123' });
    expect(taken).toMatchObject({ status: 409, body: { message: 'Email already exists' } });
    const before = await userCount();
    const limited = await register('203.0.113.5', 4);
    expect(limited).toMatchObject({ status: 429, body: { message: 'Too many sign-ups from this network. Please try again later.' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3_000);
    expect(await userCount()).toBe(before);
    // Another address registers normally.
    expect((await register('198.51.100.5', 5)).status).toBe(201);
  });
});
