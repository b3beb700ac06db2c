import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, WebhookMessages, type JobPayload } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { Outbox } from '@plink/queue';
import type { SignedInUser } from '@plink/http';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository } from '../owners/owners.repository';
import { PageEvents } from '../model/page-events';
import { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { PREVIOUS_SECRET_GRACE_MS, WebhookSecretBox, newWebhookSecret } from './webhook-endpoint';
import { recordWebhookEndpoint } from './webhook-endpoint-events';

/**
 * The page's webhook endpoint as its owner changes it (rotate the secret, turn it back on) and as the
 * notifications service asks (turn it off). The pages service owns these fields; every change drops the
 * page from the visitor caches, which say whether a new lead records a webhook job, and is told to the
 * notifications service's copy of the endpoint (recorded with the change).
 */
@Injectable()
export class WebhookEndpointService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly changes: PageChanges,
    private readonly outbox: Outbox,
    private readonly secrets: WebhookSecretBox,
    private readonly events: PageEvents,
    private readonly owners: OwnersRepository,
  ) {}

  /** A Pro owner's page with a webhook URL; 404 for another's page, 403 for a Free owner, 400 without a URL. */
  async ownedEndpoint(user: SignedInUser, pageId: number): Promise<Page> {
    const page = await this.pages.findOwned(pageId, user.id);
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    if (!user.isPremium) throw new ForbiddenException({ message: WebhookMessages.proOnly });
    return page;
  }

  /** A new secret; the old one keeps signing beside it for 24 hours, so receivers can switch without losing messages. */
  async rotateSecret(user: SignedInUser, pageId: number): Promise<Page> {
    const page = await this.ownedEndpoint(user, pageId);
    const now = Date.now();
    this.em.assign(page, {
      webhookPreviousSecret: page.webhookSecret ?? null,
      webhookPreviousSecretUntil: page.webhookSecret ? new Date(now + PREVIOUS_SECRET_GRACE_MS) : null,
      webhookSecret: this.secrets.seal(newWebhookSecret()),
      updatedAt: new Date(now),
    });
    recordWebhookEndpoint(this.outbox, this.em, page);
    await this.em.flush();
    return page;
  }

  /** Turns a webhook Plink turned off back on; failures before now no longer count against it. */
  async enable(user: SignedInUser, pageId: number): Promise<Page> {
    const page = await this.ownedEndpoint(user, pageId);
    this.em.assign(page, { webhookDisabledAt: null, webhookDisabledReason: null, webhookEnabledAt: new Date() });
    this.events.changed(this.em, page, user);
    recordWebhookEndpoint(this.outbox, this.em, page);
    await this.em.flush();
    await this.changes.publish([page.slug]);
    return page;
  }

  /**
   * Turns the webhook off (the notifications service decided: 410 Gone, or it kept failing) while the page
   * still has the URL that failed, and e-mails the owner once, in the same transaction: the e-mail carries the
   * page as it is now, and goes to identity first, which owns the owner's address ('identity.account-email').
   */
  async disable(payload: JobPayload<'pages.disable-webhook'>): Promise<void> {
    const page = await this.pages.findById(payload.pageId);
    if (!page || page.webhookUrl !== payload.url || page.webhookDisabledAt) {
      getLogger().info({ pageId: payload.pageId }, 'webhook not disabled: the page, its URL or its state changed');
      return;
    }
    this.em.assign(page, { webhookDisabledAt: new Date(), webhookDisabledReason: payload.reason });
    recordWebhookEndpoint(this.outbox, this.em, page);
    this.outbox.record(this.em, 'identity.account-email', {
      v: 1,
      userId: page.userId,
      email: 'email.webhook-disabled',
      content: { page: { id: page.id, title: page.title, webhookUrl: page.webhookUrl ?? null }, reason: payload.reason },
    });
    const owner = await this.owners.find(page.userId, this.em);
    if (owner) this.events.changed(this.em, page, owner);
    else this.events.deleted(this.em, page.id);
    await this.em.flush();
    await this.changes.publish([page.slug]);
    getLogger().info({ pageId: page.id, reason: payload.reason }, 'webhook disabled');
  }
}
