import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { PageMessages, WebhookMessages, type WebhookDisableReason, type WebhookEndpointDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { newWebhookSecret } from '@plink/crypto';
import { checkOutboundUrl } from '@plink/net';
import type { SecretBox } from './webhook-secret-box';
import type { Page } from '../model/page.entity';

export { WEBHOOK_SECRET_GRACE_MS as PREVIOUS_SECRET_GRACE_MS } from '@plink/contracts';
export { newWebhookSecret } from '@plink/crypto';

export { WebhookSecretBox, type SecretBox } from './webhook-secret-box';

/** The secrets that sign now: the current one, and the previous one during its 24 hours (space-separated when shown). */
export function signingSecrets(
  page: Pick<Page, 'webhookSecret' | 'webhookPreviousSecret' | 'webhookPreviousSecretUntil'>,
  box: SecretBox,
  now = new Date(),
): string[] {
  if (!page.webhookSecret) return [];
  const current = box.open(page.webhookSecret);
  const previous =
    page.webhookPreviousSecret && page.webhookPreviousSecretUntil && new Date(page.webhookPreviousSecretUntil).getTime() > now.getTime()
      ? box.open(page.webhookPreviousSecret)
      : null;
  return [current, previous].filter((secret): secret is string => secret !== null);
}

/**
 * The webhook fields of a page as a save changes them: a new (or changed) URL gets a secret if the page has
 * none yet and starts afresh (turned on, failures before it forgotten); clearing the URL keeps the secret, so
 * a URL saved again later signs with the same one.
 */
export function webhookFieldsOnSave(
  page: Pick<Page, 'webhookUrl' | 'webhookSecret'> | null,
  url: string | null | undefined,
  box: SecretBox,
  now = new Date(),
): Partial<Page> {
  if (url === undefined || url === null || url === (page?.webhookUrl ?? null)) return {};
  return {
    webhookSecret: page?.webhookSecret ?? box.seal(newWebhookSecret()),
    webhookEnabledAt: now,
    webhookDisabledAt: null,
    webhookDisabledReason: null,
  };
}

export const DISABLED_REASON_TEXT: Record<WebhookDisableReason, string> = {
  gone: WebhookMessages.disabledGone,
  failing: WebhookMessages.disabledFailing,
  exhausted: WebhookMessages.disabledExhausted,
};

/**
 * The check a webhook URL passes on save: http(s) with a host, and not pointing inward (resolved once;
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS lifts that part). A host that does not resolve now is saved.
 */
@Injectable()
export class WebhookUrlCheck {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async assertAllowed(url: string): Promise<void> {
    const verdict = await checkOutboundUrl(url, { allowPrivate: this.config.webhookAllowPrivateNetworks });
    if (!verdict.ok) {
      throw new BadRequestException({ message: verdict.reason === 'scheme' ? PageMessages.invalidUrl : WebhookMessages.blockedAddress });
    }
  }
}

/** The endpoint as its owner sees it. */
export function toWebhookEndpointDto(page: Page, box: SecretBox, now = new Date()): WebhookEndpointDto {
  const secrets = signingSecrets(page, box, now);
  return {
    url: page.webhookUrl ?? null,
    enabled: !page.webhookDisabledAt,
    secret: secrets.length > 0 ? secrets.join(' ') : null,
    disabledReason: page.webhookDisabledReason ? DISABLED_REASON_TEXT[page.webhookDisabledReason] : null,
  };
}
