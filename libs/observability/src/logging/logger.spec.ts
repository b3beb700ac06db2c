import { Writable } from 'node:stream';
import { getLogger, initLogger, maskToken, runWithCorrelation, scrubText } from './logger';

describe('log lines', () => {
  const lines: Record<string, unknown>[] = [];
  beforeAll(() => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    initLogger({ level: 'info', pretty: false, destination });
  });
  beforeEach(() => {
    lines.length = 0;
  });
  const flushed = () => new Promise((resolve) => setImmediate(resolve));

  it('never carry an e-mail address or a secret, however they are logged', async () => {
    getLogger().info(
      {
        email: 'Jane.Doe+x@Example.co.uk',
        password: 'first-secret',
        userId: 4,
        user: { email: 'a@b.co', sessionId: 'sess-123', note: 'from c@d.io' },
        request: { headers: { cookie: 'sid=abc', 'set-cookie': 'sid=def', authorization: 'Bearer xyz' } },
        list: ['e@f.gh'],
        mail: { to: 'g@h.io', token: 'tok-456' },
      },
      'sent to k@l.io today',
    );
    getLogger().error({ err: new Error('no account for m@n.io') }, 'failed');
    await flushed();
    const [line, error] = lines;
    expect(line).toMatchObject({
      msg: 'sent to [email] today',
      email: '[email]',
      password: '[redacted]',
      userId: 4,
      user: { email: '[email]', sessionId: '[redacted]', note: 'from [email]' },
      request: { headers: { cookie: '[redacted]', 'set-cookie': '[redacted]', authorization: '[redacted]' } },
      list: ['[email]'],
      mail: { to: '[email]', token: '[redacted]' },
    });
    expect((error.err as { message: string }).message).toBe('no account for [email]');
    const all = JSON.stringify(lines);
    expect(all).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    for (const secret of ['first-secret', 'sess-123', 'sid=abc', 'sid=def', 'xyz', 'tok-456']) expect(all).not.toContain(secret);
  });

  it("never carry a visitor's IP address or user agent kept as a lead's evidence", async () => {
    getLogger().info(
      {
        lead: { signupIp: '203.0.113.7', signupUserAgent: 'Mozilla/5.0 (probe)' },
        evidence: { userAgent: 'Mozilla/5.0 (probe)' },
        request: { headers: { 'user-agent': 'Mozilla/5.0 (probe)' } },
      },
      'lead stored',
    );
    await flushed();
    expect(lines[0]).toMatchObject({
      lead: { signupIp: '[redacted]', signupUserAgent: '[redacted]' },
      evidence: { userAgent: '[redacted]' },
      request: { headers: { 'user-agent': '[redacted]' } },
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/203\.0\.113\.7|probe/);
  });

  it('carry the correlation id of the request or job they belong to', async () => {
    runWithCorrelation('job-42', () => getLogger().info({ job: 'email.verification' }, 'sent'));
    runWithCorrelation('not a valid id!', () => getLogger().info('other'));
    getLogger().info('outside');
    await flushed();
    expect(lines[0]).toMatchObject({ correlationId: 'job-42', job: 'email.verification', msg: 'sent' });
    expect(lines[1].correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[2].correlationId).toBeUndefined();
  });

  it('shows at most the first 10 characters of a token', () => {
    expect(maskToken('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghij…');
    expect(maskToken('abc').length).toBeLessThanOrEqual(10);
    expect(scrubText('sent to Jane.Doe+x@Example.co.uk today')).toBe('sent to [email] today');
  });
});
