import { WEBHOOK_SECRET_SEAL } from '@plink/contracts';
import type { AppConfig } from '@plink/config';
import { seal } from '@plink/crypto';
import { WebhookSecretOpener } from './webhook-secret-opener';

const sessionSecret = 'opener-spec-session-secret-0123456789abcdef';
const opener = new WebhookSecretOpener({ sessionSecret } as AppConfig);

describe('WebhookSecretOpener', () => {
  it('opens a secret sealed as the pages service seals it', () => {
    expect(opener.open(seal(sessionSecret, 'whsec_abc', WEBHOOK_SECRET_SEAL))).toBe('whsec_abc');
  });

  it('answers null for a secret sealed under another SESSION_SECRET or for another purpose', () => {
    expect(opener.open(seal('another-session-secret-0123456789abcdef0123', 'whsec_abc', WEBHOOK_SECRET_SEAL))).toBeNull();
    expect(opener.open(seal(sessionSecret, 'whsec_abc', 'something-else'))).toBeNull();
  });
});
