import { Inject, Injectable } from '@nestjs/common';
import type { PublicPageDto, WebhookEndpointDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/platform';
import { IdentityDirectory } from '@plink/identity';
import { PageChanges } from '../cache/page-changes';
import { TtlCache } from '../cache/ttl-cache';
import { toPublicPage } from '../pages/page.dto';
import { PagesRepository } from '../pages/pages.repository';
import { WebhookSecretBox, signingSecrets, toWebhookEndpointDto } from '../webhooks/webhook-endpoint';

/** A page as the visitor-facing services need it (the public page, and what a lead's jobs need). */
export interface VisitorPage {
  id: number;
  ownerId: number;
  ownerUsername: string;
  ownerIsPremium: boolean;
  /**
   * Paused after the owner's downgrade: visitors get 'This page is paused' (404), no view is counted and
   * no submission is taken. `public` is still filled, but must not be shown.
   */
  paused: boolean;
  /** What the visitor sees (GET /api/page/{slug}, the server render). */
  public: PublicPageDto;
  title: string;
  slug: string;
  fileUrl: string | null;
  /** Set only when the owner is Pro (webhooks are a Pro feature). */
  webhookUrl: string | null;
}

export interface OwnedPage {
  id: number;
  slug: string;
  title: string;
  views: number;
}

export interface PageSummary {
  id: number;
  slug: string;
  title: string;
  fileUrl: string | null;
}

/** A page's webhook endpoint as the notifications service needs it at send time (read fresh, never cached). */
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
  private readonly cache = new TtlCache<VisitorPage | null>(MAX_ENTRIES);
  private readonly loading = new Map<string, Promise<VisitorPage | null>>();

  constructor(
    private readonly pages: PagesRepository,
    private readonly identity: IdentityDirectory,
    private readonly changes: PageChanges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: WebhookSecretBox,
  ) {
    changes.onChange((slug) => {
      if (slug === null) this.cache.clear();
      else this.cache.delete(slug);
      if (slug === null) this.loading.clear();
      else this.loading.delete(slug);
    });
  }

  /** The page of a slug (any case) for a visitor, or null. No database query while it is cached. */
  findForVisitor(slug: string): Promise<VisitorPage | null> {
    const key = slug.toLowerCase();
    const cached = this.cache.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = this.loading.get(key);
    if (!pending) {
      const generation = this.cache.current();
      const live = this.changes.live();
      pending = this.load(key).then(
        (page) => {
          if (live) this.cache.setIfCurrent(generation, key, page, page ? FOUND_TTL_MS : MISSING_TTL_MS);
          if (this.loading.get(key) === pending) this.loading.delete(key);
          return page;
        },
        (err: unknown) => {
          if (this.loading.get(key) === pending) this.loading.delete(key);
          throw err;
        },
      );
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** A page of this user (for their stats), or null when it is not theirs or does not exist. */
  async findOwned(pageId: number, userId: number): Promise<OwnedPage | null> {
    const page = await this.pages.findOwned(pageId, userId);
    return page ? { id: page.id, slug: page.slug, title: page.title, views: Number(page.views ?? 0) } : null;
  }

  /** How many of the user's pages are paused (the lead-removal warning goes only to users who have some). */
  async countPaused(userId: number): Promise<number> {
    return (await this.pages.pausedIdsOf(userId)).length;
  }

  /** A page by id (e.g. for the file-delivery e-mail), or null. */
  async findById(pageId: number): Promise<PageSummary | null> {
    const page = await this.pages.findById(pageId);
    return page ? { id: page.id, slug: page.slug, title: page.title, fileUrl: page.fileUrl ?? null } : null;
  }

  /** The page's webhook endpoint now (its owner's plan included), or null when the page or its owner is gone. */
  async findWebhookTarget(pageId: number): Promise<WebhookTarget | null> {
    const page = await this.pages.findById(pageId);
    if (!page) return null;
    const owner = await this.identity.findContact(page.userId);
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

  private async load(slug: string): Promise<VisitorPage | null> {
    const page = await this.pages.findBySlug(slug);
    if (!page) return null;
    const owner = await this.identity.findContact(page.userId);
    if (!owner) return null;
    return {
      id: page.id,
      ownerId: owner.id,
      ownerUsername: owner.username,
      ownerIsPremium: owner.isPremium,
      paused: !!page.pausedAt,
      public: toPublicPage(page, owner),
      title: page.title,
      slug: page.slug,
      fileUrl: page.fileUrl ?? null,
      // Only a Pro owner's page with its webhook on records webhook jobs.
      webhookUrl: owner.isPremium && !page.webhookDisabledAt ? (page.webhookUrl ?? null) : null,
    };
  }
}
