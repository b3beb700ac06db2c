import { PREVIOUS_SECRET_GRACE_MS, newWebhookSecret, signingSecrets, toWebhookEndpointDto, webhookFieldsOnSave } from './webhook-endpoint';
import type { Page } from '../pages/page.entity';

describe('webhook endpoint fields', () => {
  it('makes Standard Webhooks secrets: whsec_ and 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('gives a first URL a secret and a fresh start; a changed URL keeps the secret; an unchanged or cleared one changes nothing', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const first = webhookFieldsOnSave(null, 'https://a.example/h', now);
    expect(first).toMatchObject({ webhookEnabledAt: now, webhookDisabledAt: null, webhookDisabledReason: null });
    expect(first.webhookSecret).toMatch(/^whsec_/);
    const page = { webhookUrl: 'https://a.example/h', webhookSecret: 'whsec_kept' };
    expect(webhookFieldsOnSave(page, 'https://b.example/h', now)).toMatchObject({ webhookSecret: 'whsec_kept', webhookEnabledAt: now, webhookDisabledAt: null });
    expect(webhookFieldsOnSave(page, 'https://a.example/h', now)).toEqual({});
    expect(webhookFieldsOnSave(page, null, now)).toEqual({});
    expect(webhookFieldsOnSave(page, undefined, now)).toEqual({});
  });

  it('signs with the previous secret beside the new one for 24 hours after a rotation, then with the new one alone', () => {
    const rotatedAt = new Date('2026-11-24T10:00:00Z').getTime();
    const page = {
      webhookSecret: 'whsec_new',
      webhookPreviousSecret: 'whsec_old',
      webhookPreviousSecretUntil: new Date(rotatedAt + PREVIOUS_SECRET_GRACE_MS),
    };
    expect(signingSecrets(page, new Date(rotatedAt + 1_000))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(page, new Date(rotatedAt + PREVIOUS_SECRET_GRACE_MS + 1))).toEqual(['whsec_new']);
    expect(signingSecrets({ webhookSecret: null, webhookPreviousSecret: null, webhookPreviousSecretUntil: null })).toEqual([]);
  });

  it('shows the owner the endpoint: both secrets space-separated, and why it is off', () => {
    const page = {
      webhookUrl: 'https://a.example/h',
      webhookSecret: 'whsec_new',
      webhookPreviousSecret: 'whsec_old',
      webhookPreviousSecretUntil: new Date(Date.now() + 60_000),
      webhookDisabledAt: new Date(),
      webhookDisabledReason: 'gone',
    } as unknown as Page;
    expect(toWebhookEndpointDto(page)).toEqual({
      url: 'https://a.example/h',
      enabled: false,
      secret: 'whsec_new whsec_old',
      disabledReason: 'The receiver answered 410 Gone.',
    });
  });
});
