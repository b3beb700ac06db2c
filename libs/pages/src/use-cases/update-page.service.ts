import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, type PageFields, UploadUrls } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import type { SignedInUser } from '@plink/http';
import { PageChanges } from '../cache/page-changes';
import type { Page } from '../model/page.entity';
import { OwnersRepository } from '../owners/owners.repository';
import { PagesRepository } from '../model/pages.repository';
import { applyPlanRules } from '../model/plan-rules';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';
import { WebhookSecretBox, WebhookUrlCheck, webhookFieldsOnSave } from '../webhooks/webhook-endpoint';
import { recordWebhookEndpoint } from '../webhooks/webhook-endpoint-events';
import { slugTaken, withoutUndefined } from './create-page.service';
import { PageEvents } from '../model/page-events';

/**
 * Changes the fields a request sends on one of the user's own pages (another user's page: 404). The plan
 * rules apply on every save (see applyPlanRules); a new slug must be free. Visitors see the change at once:
 * the old and new slugs are dropped from every replica's caches. Uploaded images the page no longer shows
 * (replaced or cleared) are removed by a job recorded with the change ('pages.delete-uploads').
 */
@Injectable()
export class UpdatePageService {
  constructor(
    private readonly em: EntityManager,
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    private readonly changes: PageChanges,
    private readonly outbox: Outbox,
    private readonly uploads: UploadUrls,
    private readonly webhookUrls: WebhookUrlCheck,
    private readonly secrets: WebhookSecretBox,
    private readonly events: PageEvents,
  ) {}

  async execute(user: SignedInUser, pageId: number, changes: Partial<PageFields>): Promise<Page> {
    const page = await this.pages.findOwned(pageId, user.id);
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    const fields = withoutUndefined(applyPlanRules(changes, user));
    if ('subtext' in fields) fields.subtext = sanitizeRichText(fields.subtext);
    if ('emailBody' in fields) fields.emailBody = sanitizeRichText(fields.emailBody);
    const oldSlug = page.slug;
    if (fields.slug !== undefined && fields.slug.toLowerCase() !== oldSlug.toLowerCase() && (await this.pages.slugTaken(fields.slug, page.id))) {
      throw slugTaken();
    }
    // A new webhook URL is checked (where it points) and starts afresh; an unchanged one is not checked again.
    const webhook = webhookFieldsOnSave(page, fields.webhookUrl, this.secrets);
    if (fields.webhookUrl && fields.webhookUrl !== page.webhookUrl) await this.webhookUrls.assertAllowed(fields.webhookUrl);
    const uploadsBefore = this.uploads.ownKeysOf(page, user.id);
    // The page's facts name the owner as this service's copy has them (identity's newest username and e-mail,
    // billing's newest plan), not as this request read them: a request read before a change must not undo it.
    const owner = await this.owners.remember(this.em, user);
    const webhookUrlBefore = page.webhookUrl ?? null;
    try {
      // The change and the job commit together.
      await this.pages.update(page, { ...fields, ...webhook, updatedAt: new Date() }, (em) => {
        const uploadsAfter = new Set(this.uploads.ownKeysOf(page, user.id));
        const dropped = uploadsBefore.filter((key) => !uploadsAfter.has(key));
        if (dropped.length > 0) this.outbox.record(em, 'pages.delete-uploads', { v: 1, keys: dropped });
        this.events.changed(em, page, owner, { formerSlug: oldSlug });
        // The notifications service's copy of the endpoint follows a URL saved, changed or cleared.
        if ((page.webhookUrl ?? null) !== webhookUrlBefore) recordWebhookEndpoint(this.outbox, em, page);
      });
    } catch (err) {
      if (PagesRepository.isSlugConflict(err)) throw slugTaken();
      throw err;
    }
    await this.changes.publish([oldSlug, page.slug]);
    return page;
  }
}
