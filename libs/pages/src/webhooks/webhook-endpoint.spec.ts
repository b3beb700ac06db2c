import type { AppConfig } from '@plink/config';
import {
  PREVIOUS_SECRET_GRACE_MS,
  WebhookSecretBox,
  newWebhookSecret,
  signingSecrets,
  toWebhookEndpointDto,
  webhookFieldsOnSave,
} from './webhook-endpoint';
import type { Page } from '../model/page.entity';

const box = new WebhookSecretBox({ sessionSecret: 'webhook-spec-session-secret-0123456789abcdef' } as AppConfig);

describe('webhook endpoint fields', () => {
  it('makes Standard Webhooks secrets: whsec_ and 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('stores secrets sealed: not readable in the database, opened only under the same SESSION_SECRET', () => {
    const secret = newWebhookSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain('whsec_');
    expect(sealed.length).toBeLessThanOrEqual(200);
    expect(box.open(sealed)).toBe(secret);
    const other = new WebhookSecretBox({ sessionSecret: 'another-session-secret-0123456789abcdef0123' } as AppConfig);
    expect(other.open(sealed)).toBeNull();
    // One bit of the sealed secret flipped (writing 'AA' over its end changed nothing when it ended so already).
    const [iv, tag, body] = sealed.split('.');
    const tampered = Buffer.from(body, 'base64url');
    tampered[0] ^= 1;
    expect(box.open([iv, tag, tampered.toString('base64url')].join('.'))).toBeNull();
  });

  it('gives a first URL a sealed secret and a fresh start; a changed URL keeps the secret; an unchanged or cleared one changes nothing', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const first = webhookFieldsOnSave(null, 'https://a.example/h', box, now);
    expect(first).toMatchObject({ webhookEnabledAt: now, webhookDisabledAt: null, webhookDisabledReason: null });
    expect(box.open(first.webhookSecret!)).toMatch(/^whsec_/);
    const page = { webhookUrl: 'https://a.example/h', webhookSecret: 'sealed-kept' };
    expect(webhookFieldsOnSave(page, 'https://b.example/h', box, now)).toMatchObject({ webhookSecret: 'sealed-kept', webhookEnabledAt: now, webhookDisabledAt: null });
    expect(webhookFieldsOnSave(page, 'https://a.example/h', box, now)).toEqual({});
    expect(webhookFieldsOnSave(page, null, box, now)).toEqual({});
    expect(webhookFieldsOnSave(page, undefined, box, now)).toEqual({});
  });

  it('signs with the previous secret beside the new one for 24 hours after a rotation, then with the new one alone', () => {
    const rotatedAt = new Date('2026-11-24T10:00:00Z').getTime();
    const page = {
      webhookSecret: box.seal('whsec_new'),
      webhookPreviousSecret: box.seal('whsec_old'),
      webhookPreviousSecretUntil: new Date(rotatedAt + PREVIOUS_SECRET_GRACE_MS),
    };
    expect(signingSecrets(page, box, new Date(rotatedAt + 1_000))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(page, box, new Date(rotatedAt + PREVIOUS_SECRET_GRACE_MS + 1))).toEqual(['whsec_new']);
    expect(signingSecrets({ webhookSecret: null, webhookPreviousSecret: null, webhookPreviousSecretUntil: null }, box)).toEqual([]);
  });

  it('shows the owner the endpoint: both secrets space-separated, and why it is off', () => {
    const page = {
      webhookUrl: 'https://a.example/h',
      webhookSecret: box.seal('whsec_new'),
      webhookPreviousSecret: box.seal('whsec_old'),
      webhookPreviousSecretUntil: new Date(Date.now() + 60_000),
      webhookDisabledAt: new Date(),
      webhookDisabledReason: 'gone',
    } as unknown as Page;
    expect(toWebhookEndpointDto(page, box)).toEqual({
      url: 'https://a.example/h',
      enabled: false,
      secret: 'whsec_new whsec_old',
      disabledReason: 'The receiver answered 410 Gone.',
    });
  });
});
