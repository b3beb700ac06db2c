import { randomBytes } from 'node:crypto';
import { SMTP_REQUIRED, defaultRedisPrefix, describeConfig, estimateSecretBits, loadConfig } from './config.schema';

const base = { DATABASE_URL: 'postgres://plink:secret@db:5432/plink' };

describe('configuration', () => {
  it('fills every default', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      port: 3000,
      appOrigin: 'http://localhost:3000',
      secureCookies: false,
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: defaultRedisPrefix(base.DATABASE_URL),
      mailFrom: 'Plink <no-reply@plink.local>',
      mailOutboxDir: '.data/mail',
      uploadsDir: '.data/uploads',
      workers: 'none',
      logLevel: 'info',
      authRateLimitPerMinute: 200,
      loginFailuresPerAddress: 50,
      registrationsPerAddressPerHour: 10,
      leadRateLimitPerMinute: 20,
      leadFloodPerHour: 100,
      leadRefusedPerHour: 50,
      leadEvidence: 'full',
      uploadOrphanGraceHours: 24,
    });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.s3).toBeUndefined();
    expect(config.stripe).toBeUndefined();
  });

  it('serves landing pages from APP_ORIGIN unless PUBLIC_ORIGIN names another host', () => {
    expect(loadConfig({ ...base, APP_ORIGIN: 'https://app.example.com/' }).publicOrigin).toBe('https://app.example.com');
    const split = loadConfig({ ...base, APP_ORIGIN: 'https://app.example.com', PUBLIC_ORIGIN: 'https://plink.page/' });
    expect(split.publicOrigin).toBe('https://plink.page');
    expect(split.appOrigin).toBe('https://app.example.com');
    expect(() => loadConfig({ ...base, PUBLIC_ORIGIN: 'plink.page' })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => loadConfig({ ...base, PUBLIC_ORIGIN: 'https://plink.page/pages' })).toThrow(/PUBLIC_ORIGIN must be an http\(s\) origin/);
    expect(() => loadConfig({ ...base, PUBLIC_ORIGIN: 'ftp://plink.page' })).toThrow(/PUBLIC_ORIGIN must be an http\(s\) origin/);
    expect(loadConfig({ ...base, PUBLIC_ORIGIN: '' }).publicOrigin).toBe('http://localhost:3000');
  });

  it('reads Stripe only with a secret key, and STRIPE_API_URL only as an http(s) origin', () => {
    expect(loadConfig({ ...base, STRIPE_PRICE_ID: 'price_1', STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe).toBeUndefined();
    const stripe = loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_ID: 'price_1', STRIPE_API_URL: 'http://127.0.0.1:12111/' }).stripe;
    expect(stripe).toEqual({ secretKey: 'sk_test_1', webhookSecret: undefined, priceId: 'price_1', apiUrl: 'http://127.0.0.1:12111' });
    expect(() => loadConfig({ ...base, STRIPE_API_URL: 'localhost:12111' })).toThrow(/STRIPE_API_URL/);
    expect(() => loadConfig({ ...base, STRIPE_API_URL: 'http://127.0.0.1:12111/v1' })).toThrow(/STRIPE_API_URL must be an http\(s\) origin/);
  });

  it('keys each install in Redis by its database unless REDIS_PREFIX is set', () => {
    const prefix = loadConfig(base).redisPrefix;
    expect(prefix).toMatch(/^plink:plink-[0-9a-f]{6}:$/);
    // Another database (name, host or port) → another prefix; the same database with other credentials → the same.
    expect(loadConfig({ DATABASE_URL: 'postgres://plink:secret@db:5432/plink_b' }).redisPrefix).toMatch(/^plink:plink_b-[0-9a-f]{6}:$/);
    expect(loadConfig({ DATABASE_URL: 'postgres://plink:secret@db2:5432/plink' }).redisPrefix).not.toBe(prefix);
    expect(loadConfig({ DATABASE_URL: 'postgres://plink:secret@db:5433/plink' }).redisPrefix).not.toBe(prefix);
    expect(loadConfig({ DATABASE_URL: 'postgres://other:rotated@db:5432/plink' }).redisPrefix).toBe(prefix);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/plink' }).redisPrefix).toBe(prefix);
    expect(loadConfig({ ...base, REDIS_PREFIX: 'shop1:' }).redisPrefix).toBe('shop1:');
    expect(() => loadConfig({ ...base, REDIS_PREFIX: 'a b' })).toThrow(/REDIS_PREFIX may hold/);
  });

  it('refuses to start in production with a missing, example or weak SESSION_SECRET, saying what to set', () => {
    const prod = { ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587' };
    expect(() => loadConfig(prod)).toThrow(/SESSION_SECRET: SESSION_SECRET must be set in production/);
    for (const example of ['plink-development-session-secret-do-not-use-in-production', 'dev-only-insecure-session-secret-change-me', 'please-change-me-0123456789abcdefghijklmnopqrstuvwxyz']) {
      expect(() => loadConfig({ ...prod, SESSION_SECRET: example })).toThrow(/example value from the documentation/);
    }
    for (const weak of ['a'.repeat(64), 'correct horse battery staple correct horse', randomBytes(16).toString('hex')]) {
      expect(() => loadConfig({ ...prod, SESSION_SECRET: weak })).toThrow(/too weak for production: it needs 32 random bytes/);
    }
    for (let i = 0; i < 50; i++) {
      for (const strong of [randomBytes(32).toString('base64'), randomBytes(32).toString('hex'), randomBytes(48).toString('base64url')]) {
        expect(loadConfig({ ...prod, SESSION_SECRET: strong }).sessionSecret).toBe(strong);
      }
    }
    expect(estimateSecretBits(randomBytes(32).toString('hex'))).toBe(256);
    // Development keeps working without one.
    expect(loadConfig(base).sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses to start in production without SMTP_URL, in one line, unless a mail folder is chosen on purpose', () => {
    const prod = { ...base, NODE_ENV: 'production', SESSION_SECRET: randomBytes(32).toString('base64') };
    for (const unset of [{}, { SMTP_URL: '' }, { SMTP_URL: ' ' }]) {
      expect(() => loadConfig({ ...prod, ...unset })).toThrow(`Invalid configuration:\n  - SMTP_URL: ${SMTP_REQUIRED}`);
    }
    expect(SMTP_REQUIRED).not.toContain('\n');
    expect(loadConfig({ ...prod, SMTP_URL: 'smtp://relay.example:587' }).smtpUrl).toBe('smtp://relay.example:587');
    // The explicit opt-in: mail written to a folder the operator named (a test install, a bench).
    expect(loadConfig({ ...prod, MAIL_OUTBOX_DIR: '/var/plink/mail' })).toMatchObject({ smtpUrl: undefined, mailOutboxDir: '/var/plink/mail' });
    // Development and tests keep the folder by default.
    expect(loadConfig(base)).toMatchObject({ smtpUrl: undefined, mailOutboxDir: '.data/mail' });
  });

  it('seeds the demo creator in development unless PLINK_DEMO_SEED says no, and never in production', () => {
    expect(loadConfig(base).demoSeed).toBe(true);
    expect(loadConfig({ ...base, PLINK_DEMO_SEED: 'false' }).demoSeed).toBe(false);
    expect(loadConfig({ ...base, PLINK_DEMO_SEED: '0' }).demoSeed).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).demoSeed).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test', PLINK_DEMO_SEED: 'true' }).demoSeed).toBe(true);
    const prod = { ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587', SESSION_SECRET: randomBytes(32).toString('base64') };
    expect(loadConfig(prod).demoSeed).toBe(false);
    expect(loadConfig({ ...prod, PLINK_DEMO_SEED: 'false' }).demoSeed).toBe(false);
    expect(() => loadConfig({ ...prod, PLINK_DEMO_SEED: '1' })).toThrow(
      'Invalid configuration:\n  - PLINK_DEMO_SEED: PLINK_DEMO_SEED is for development: a production install never gets the demo creator (unset it)',
    );
  });

  it('trusts X-Forwarded-For only for a number of proxies or their addresses, never a blanket true', () => {
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
    expect(loadConfig({ ...base, TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    for (const blanket of ['true', 'TRUE', 'yes']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: blanket })).toThrow(
        /TRUST_PROXY=\w+ would let any client choose its own address through X-Forwarded-For; set the number of proxies in front of Plink \(e\.g\. TRUST_PROXY=1/,
      );
    }
    for (const wrong of ['10.0.0.0/33', 'proxy.internal', '1.2.3', '256']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY ".*" is neither a number of proxies nor addresses/);
    }
  });

  it('does not start with a Stripe key but no price of the Pro plan', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_PRICE_ID \(the price_… of the Pro plan\) is required when STRIPE_SECRET_KEY is set/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_ID: ' ' })).toThrow(/STRIPE_PRICE_ID/);
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ ...base, S3_PORT: '', HEALTH_PORT: ' ', PORT: '', SMTP_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.healthPort).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
  });

  it('lists every problem in one readable error', () => {
    expect(() => loadConfig({ PORT: 'abc', APP_ORIGIN: 'not a url' })).toThrow(/PORT[\s\S]*APP_ORIGIN[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
  });

  it('requires the S3 credentials only when S3 is chosen', () => {
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'minio' })).toThrow(/S3_ACCESS_KEY is required when S3_ENDPOINT is set/);
    const config = loadConfig({ ...base, S3_ENDPOINT: 'minio', S3_PORT: '9000', S3_USE_SSL: 'false', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', S3_BUCKET: 'c' });
    expect(config.s3).toMatchObject({ endPoint: 'minio', port: 9000, useSSL: false, bucket: 'c' });
  });

  it('bounds each webhook endpoint and both webhook timeouts, the connect one within the whole attempt', () => {
    expect(loadConfig(base)).toMatchObject({ webhookEndpointConcurrency: 4, webhookConnectTimeoutMs: 3_000, webhookResponseTimeoutMs: 10_000 });
    const set = loadConfig({ ...base, WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_CONNECT_TIMEOUT_MS: '500', WEBHOOK_RESPONSE_TIMEOUT_MS: '5000' });
    expect(set).toMatchObject({ webhookEndpointConcurrency: 2, webhookConnectTimeoutMs: 500, webhookResponseTimeoutMs: 5_000 });
    expect(() => loadConfig({ ...base, WEBHOOK_CONNECT_TIMEOUT_MS: '20000' })).toThrow(
      /WEBHOOK_CONNECT_TIMEOUT_MS must not be longer than WEBHOOK_RESPONSE_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ ...base, WEBHOOK_ENDPOINT_CONCURRENCY: '0' })).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY/);
    expect(() => loadConfig({ ...base, WEBHOOK_RESPONSE_TIMEOUT_MS: 'soon' })).toThrow(/WEBHOOK_RESPONSE_TIMEOUT_MS/);
  });

  it('keeps full lead evidence unless LEAD_EVIDENCE=minimal, and refuses any other value', () => {
    expect(loadConfig({ ...base, LEAD_EVIDENCE: 'minimal' }).leadEvidence).toBe('minimal');
    expect(loadConfig({ ...base, LEAD_EVIDENCE: '' }).leadEvidence).toBe('full');
    expect(() => loadConfig({ ...base, LEAD_EVIDENCE: 'none' })).toThrow(/LEAD_EVIDENCE/);
  });

  it('takes the upload sweep grace period in whole hours, at least 1', () => {
    expect(loadConfig({ ...base, UPLOAD_ORPHAN_GRACE_HOURS: '72' }).uploadOrphanGraceHours).toBe(72);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => loadConfig({ ...base, UPLOAD_ORPHAN_GRACE_HOURS: bad })).toThrow(/UPLOAD_ORPHAN_GRACE_HOURS/);
    }
  });

  it('requires a real session secret in production and sets Secure cookies for https', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    const config = loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587', SESSION_SECRET: randomBytes(32).toString('base64'), APP_ORIGIN: 'https://plink.example/' });
    expect(config.secureCookies).toBe(true);
    expect(config.appOrigin).toBe('https://plink.example');
  });

  it('masks secrets when describing itself', () => {
    const text = JSON.stringify(describeConfig(loadConfig({ ...base, SMTP_URL: 'smtp://mailer:hunter2@smtp.example:587' })));
    expect(text).not.toContain('secret');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('plink:***@db');
  });

  it('reads DNS_SERVERS as a list of IP addresses with optional ports, and EMAIL_MX_CHECK on in production only', () => {
    expect(loadConfig({ ...base, DNS_SERVERS: '1.1.1.1, 9.9.9.9:53,[2606:4700::1111]:53,::1' }).dnsServers).toEqual(['1.1.1.1', '9.9.9.9:53', '[2606:4700::1111]:53', '::1']);
    expect(loadConfig(base).dnsServers).toEqual([]);
    for (const bad of ['dns.example', '1.1.1.1:99999', '[::1', 'a b']) {
      expect(() => loadConfig({ ...base, DNS_SERVERS: bad })).toThrow(/DNS_SERVERS must be a comma-separated list of IP addresses/);
    }
    expect(loadConfig(base).emailMxCheck).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).emailMxCheck).toBe(false);
    expect(loadConfig({ ...base, EMAIL_MX_CHECK: 'true' }).emailMxCheck).toBe(true);
    const prod = { ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://relay.example:587', SESSION_SECRET: randomBytes(32).toString('base64') };
    expect(loadConfig(prod).emailMxCheck).toBe(true);
    expect(loadConfig({ ...prod, EMAIL_MX_CHECK: 'false' }).emailMxCheck).toBe(false);
  });
});
