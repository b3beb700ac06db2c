import { Inject, Injectable } from '@nestjs/common';
import type { PageFacts, PublicPageDto, WebhookEndpointDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ChannelCache } from '@plink/redis';
import { PageChanges } from '../cache/page-changes';
import { OwnersRepository, type Owner } from '../owners/owners.repository';
import { factsOf } from '../model/page-events';
import { toPublicPage } from '../model/page.dto';
import { PagesRepository } from '../model/pages.repository';
import { WebhookSecretBox, signingSecrets, toWebhookEndpointDto } from '../webhooks/webhook-endpoint';

/** A page as its visitors see it (the public page API and the server render). */
export interface VisitorPage {
  id: number;
  slug: string;
  ownerUsername: string;
  /**
   * Paused after the owner's downgrade: visitors get 'This page is paused' (404), no view is counted and
   * no submission is taken. `public` is still filled, but must not be shown.
   */
  paused: boolean;
  /** What the visitor sees (GET /api/page/{slug}, the server render). */
  public: PublicPageDto;
}

export interface OwnedPage {
  id: number;
  slug: string;
  title: string;
  views: number;
}

/** A page's webhook endpoint as its owner's webhook calls need it (read fresh, never cached; see WebhookEndpointLookup). */
export interface WebhookTarget {
  pageId: number;
  ownerId: number;
  ownerIsPremium: boolean;
  slug: string;
  title: string;
  /** The page's public address (`{PUBLIC_ORIGIN}/{slug}`). */
  pageUrl: string;
  url: string | null;
  /** The secrets that sign now (the new one first; two during 24 h after a rotation). */
  secrets: string[];
  enabled: boolean;
  /** When the current URL started receiving: failures before it do not count. */
  enabledAt: Date | null;
  /** The endpoint as the owner's GET /api/pages/{id}/webhook shows it. */
  view: WebhookEndpointDto;
}

/** How long a visitor page stays cached: changes to the page drop it at once; this bounds owner changes (plan, name). */
const FOUND_TTL_MS = 60_000;
/** A slug without a page: creating one drops it at once too. */
const MISSING_TTL_MS = 10_000;
const MAX_ENTRIES = 20_000;

/**
 * The pages service's read API for other services. `findForVisitor` is the public hot path: cached in
 * memory per process, dropped on every change of the page in any replica ({@link PageChanges}).
 */
@Injectable()
export class PagesDirectory {
  private readonly cache: ChannelCache<VisitorPage>;

  constructor(
    private readonly pages: PagesRepository,
    private readonly owners: OwnersRepository,
    changes: PageChanges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: WebhookSecretBox,
  ) {
    this.cache = new ChannelCache(changes, { maxEntries: MAX_ENTRIES, foundTtlMs: FOUND_TTL_MS, missingTtlMs: MISSING_TTL_MS });
  }

  /** The page of a slug (any case) for a visitor, or null. No database query while it is cached. */
  findForVisitor(slug: string): Promise<VisitorPage | null> {
    return this.cache.get(slug, (key) => this.load(key));
  }

  /** A page of this user (for their stats), or null when it is not theirs or does not exist. */
  async findOwned(pageId: number, userId: number): Promise<OwnedPage | null> {
    const page = await this.pages.findOwned(pageId, userId);
    return page ? { id: page.id, slug: page.slug, title: page.title, views: Number(page.views ?? 0) } : null;
  }

  /** The page's webhook endpoint now (its owner's plan included), or null when the page or its owner is gone. */
  async findWebhookTarget(pageId: number): Promise<WebhookTarget | null> {
    const page = await this.pages.findById(pageId);
    if (!page) return null;
    const owner = await this.owners.find(page.userId);
    if (!owner) return null;
    return {
      pageId: page.id,
      ownerId: owner.id,
      ownerIsPremium: owner.isPremium,
      slug: page.slug,
      title: page.title,
      pageUrl: `${this.config.publicOrigin}/${page.slug}`,
      url: page.webhookUrl ?? null,
      secrets: signingSecrets(page, this.secrets),
      enabled: !page.webhookDisabledAt,
      enabledAt: page.webhookEnabledAt ? new Date(page.webhookEnabledAt) : null,
      view: toWebhookEndpointDto(page, this.secrets),
    };
  }

  /**
   * The facts of a slug's page as its 'page.changed' events carry them (the same rule, {@link factsOf}),
   * read now and not cached: for the leads service's fallback when its read model has not heard of a page yet.
   */
  async findPageFacts(slug: string): Promise<{ pageId: number; facts: PageFacts } | null> {
    const page = await this.pages.findBySlug(slug);
    if (!page) return null;
    return { pageId: page.id, facts: factsOf(page, await this.ownerOf(page.userId), !!page.pausedAt) };
  }

  private async load(slug: string): Promise<VisitorPage | null> {
    const page = await this.pages.findBySlug(slug);
    if (!page) return null;
    const owner = await this.ownerOf(page.userId);
    return { id: page.id, slug: page.slug, ownerUsername: owner.username, paused: !!page.pausedAt, public: toPublicPage(page, owner) };
  }

  /**
   * The page's owner from the pages service's copy. One it has not heard of yet (identity's announcement of
   * the owners that existed before this copy is on its way) counts as a Free owner without a name until it
   * comes; it drops the owner's pages from the caches when it does.
   */
  private async ownerOf(userId: number): Promise<Owner> {
    return (await this.owners.find(userId)) ?? { id: userId, username: '', isPremium: false };
  }
}
