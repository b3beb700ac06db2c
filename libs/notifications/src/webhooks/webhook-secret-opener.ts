import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_SECRET_SEAL } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { unseal } from '@plink/crypto';
import { getLogger } from '@plink/observability';

/**
 * Opens the signing secrets of the service's copy of the webhook endpoints: the pages service seals them
 * (its WebhookSecretBox, under WEBHOOK_SECRET_SEAL and SESSION_SECRET) and they come sealed in its events.
 */
@Injectable()
export class WebhookSecretOpener {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The secret, or null when it cannot be opened (sealed under another SESSION_SECRET). */
  open(sealed: string): string | null {
    try {
      return unseal(this.config.sessionSecret, sealed, WEBHOOK_SECRET_SEAL);
    } catch {
      getLogger().warn('a webhook secret could not be opened (sealed under another SESSION_SECRET?); its owner must rotate it');
      return null;
    }
  }
}
