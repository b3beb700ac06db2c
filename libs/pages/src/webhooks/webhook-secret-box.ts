import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_SECRET_SEAL } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { getLogger } from '@plink/observability';
import { seal, unseal } from '@plink/crypto';

/** Seals webhook secrets for the database and opens them again (null when one cannot be opened). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string | null;
}

/**
 * Webhook secrets are stored sealed (AES-256-GCM under a key derived from SESSION_SECRET), so the database
 * alone does not let anyone sign messages a creator's receiver would trust. A secret sealed under another
 * SESSION_SECRET cannot be opened: that page signs nothing until its owner rotates the secret. The pages
 * service owns the endpoint, so the box is its own; the notifications service opens its copy of the sealed
 * secrets with its WebhookSecretOpener, under the same purpose (WEBHOOK_SECRET_SEAL in the contracts).
 */
@Injectable()
export class WebhookSecretBox implements SecretBox {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  seal(plain: string): string {
    return seal(this.config.sessionSecret, plain, WEBHOOK_SECRET_SEAL);
  }

  open(sealed: string): string | null {
    try {
      return unseal(this.config.sessionSecret, sealed, WEBHOOK_SECRET_SEAL);
    } catch {
      getLogger().warn('a webhook secret could not be opened (sealed under another SESSION_SECRET?); its owner must rotate it');
      return null;
    }
  }
}
