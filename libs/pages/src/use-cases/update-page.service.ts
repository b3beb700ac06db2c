import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PageMessages, type PageFields } from '@plink/contracts';
import type { User } from '@plink/identity';
import { Outbox } from '@plink/platform';
import { PageChanges } from '../cache/page-changes';
import type { Page } from '../pages/page.entity';
import { PagesRepository } from '../pages/pages.repository';
import { applyPlanRules } from '../pages/plan-rules';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';
import { UploadUrls } from '../uploads/upload-urls';
import { WebhookSecretBox, WebhookUrlCheck, webhookFieldsOnSave } from '../webhooks/webhook-endpoint';
import { slugTaken, withoutUndefined } from './create-page.service';

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
    private readonly changes: PageChanges,
    private readonly outbox: Outbox,
    private readonly uploads: UploadUrls,
    private readonly webhookUrls: WebhookUrlCheck,
    private readonly secrets: WebhookSecretBox,
  ) {}

  async execute(user: User, pageId: number, changes: Partial<PageFields>): Promise<Page> {
    const page = await this.pages.findOwned(pageId, user.id);
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    const fields = withoutUndefined(applyPlanRules(changes, user));
    if ('subtext' in fields) fields.subtext = sanitizeRichText(fields.subtext);
    const oldSlug = page.slug;
    if (fields.slug !== undefined && fields.slug.toLowerCase() !== oldSlug.toLowerCase() && (await this.pages.slugTaken(fields.slug, page.id))) {
      throw slugTaken();
    }
    // A new webhook URL is checked (where it points) and starts afresh; an unchanged one is not checked again.
    const webhook = webhookFieldsOnSave(page, fields.webhookUrl, this.secrets);
    if (fields.webhookUrl && fields.webhookUrl !== page.webhookUrl) await this.webhookUrls.assertAllowed(fields.webhookUrl);
    const uploadsBefore = this.uploads.ownKeysOf(page, user.id);
    this.em.assign(page, { ...fields, ...webhook, updatedAt: new Date() });
    const uploadsAfter = new Set(this.uploads.ownKeysOf(page, user.id));
    const dropped = uploadsBefore.filter((key) => !uploadsAfter.has(key));
    // One flush, one transaction: the change and the job commit together.
    if (dropped.length > 0) this.outbox.record(this.em, 'pages.delete-uploads', { v: 1, keys: dropped });
    try {
      await this.em.flush();
    } catch (err) {
      if (PagesRepository.isSlugConflict(err)) throw slugTaken();
      throw err;
    }
    if (dropped.length > 0) this.outbox.kick();
    await this.changes.publish([oldSlug, page.slug]);
    return page;
  }
}
