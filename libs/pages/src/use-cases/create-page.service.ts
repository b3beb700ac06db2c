import { ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, type PageFields } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import type { SignedInUser } from '@plink/http';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository } from '../owners/owners.repository';
import { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { applyPlanRules } from '../model/plan-rules';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';
import { WebhookSecretBox, WebhookUrlCheck, webhookFieldsOnSave } from '../webhooks/webhook-endpoint';
import { PageEvents } from '../model/page-events';
import { hasWebhookEndpoint, recordWebhookEndpoint } from '../webhooks/webhook-endpoint-events';

/**
 * Creates a page for a verified user. Free users get one page in total (checked under a per-user lock,
 * so concurrent requests cannot both pass); slugs are unique across all users (checked first for a clear
 * answer, and enforced by the unique index when two creators race for one).
 */
@Injectable()
export class CreatePageService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly changes: PageChanges,
    private readonly webhookUrls: WebhookUrlCheck,
    private readonly secrets: WebhookSecretBox,
    private readonly events: PageEvents,
    private readonly outbox: Outbox,
  ) {}

  async execute(user: SignedInUser, input: PageFields): Promise<Page> {
    if (!user.isVerified) throw new ForbiddenException({ message: PageMessages.verifyFirst });
    if (!user.isPremium && (await this.pages.countByOwner(user.id)) >= 1) throw freePlanLimit();
    const planned = applyPlanRules(input, user);
    const fields = { ...planned, subtext: sanitizeRichText(input.subtext), emailBody: sanitizeRichText(input.emailBody), ...webhookFieldsOnSave(null, planned.webhookUrl, this.secrets) };
    if (await this.pages.slugTaken(fields.slug)) throw slugTaken();
    if (planned.webhookUrl) await this.webhookUrls.assertAllowed(planned.webhookUrl);

    let page: Page;
    try {
      page = await this.em.transactional(async (tx) => {
        if (!user.isPremium) {
          await this.pages.lockOwner(tx, user.id);
          if ((await this.pages.countByOwner(user.id, tx)) >= 1) throw freePlanLimit();
        }
        // The owner's username and plan, for their visitor pages (kept by the pages service itself).
        const owner = await this.owners.remember(tx, user);
        const created = tx.create(Page, { ...withoutUndefined(fields), slug: fields.slug, userId: user.id });
        await tx.flush();
        // The owner as this service's copy has them (see UpdatePageService).
        this.events.changed(tx, created, owner);
        if (hasWebhookEndpoint(created)) recordWebhookEndpoint(this.outbox, tx, created);
        return created;
      });
    } catch (err) {
      if (PagesRepository.isSlugConflict(err)) throw slugTaken();
      throw err;
    }
    // A visitor may have asked for this slug before it existed: that "not found" is cached.
    await this.changes.publish([page.slug]);
    return page;
  }
}

export function slugTaken(): ConflictException {
  return new ConflictException({ message: PageMessages.slugTaken });
}

function freePlanLimit(): ForbiddenException {
  return new ForbiddenException({ message: PageMessages.freePlanLimit });
}

/** Drops the fields a request did not set (the entity's defaults apply to them). */
export function withoutUndefined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
