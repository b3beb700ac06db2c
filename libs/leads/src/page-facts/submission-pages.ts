import { Injectable, Optional } from '@nestjs/common';
import { ChannelCache } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { PageFactsChanges } from './page-facts-changes';
import { PageFactsRepository, toSubmissionPage, type SubmissionPage } from './page-facts.repository';
import { PageFactsFallback } from './ports';

/** How long a page stays cached: every change of it drops it at once (see PageFactsChanges); this is a bound. */
const FOUND_TTL_MS = 60_000;
/** A slug without a page: creating one drops it at once too. */
const MISSING_TTL_MS = 10_000;
const MAX_ENTRIES = 20_000;

/**
 * The page of a submission, from the leads service's read model, cached in memory per process like the
 * visitor pages are: the public hot path makes no database query while a page is cached. Every change of
 * the read model drops the page's slugs in every replica ({@link PageFactsChanges}); entries are kept only
 * while that channel is live.
 *
 * A slug the read model does not know is asked of the {@link PageFactsFallback} (when the process has one),
 * and the answer is kept in the read model, so a page published a moment ago, whose event another process
 * has not applied yet, still takes its first submission.
 */
@Injectable()
export class SubmissionPages {
  private readonly cache: ChannelCache<SubmissionPage>;

  constructor(
    private readonly facts: PageFactsRepository,
    changes: PageFactsChanges,
    @Optional() private readonly fallback?: PageFactsFallback,
  ) {
    this.cache = new ChannelCache(changes, { maxEntries: MAX_ENTRIES, foundTtlMs: FOUND_TTL_MS, missingTtlMs: MISSING_TTL_MS });
  }

  /** The page of a slug (any case), or null. No database query while it is cached. */
  find(slug: string): Promise<SubmissionPage | null> {
    return this.cache.get(slug, (key) => this.load(key));
  }

  private async load(slug: string): Promise<SubmissionPage | null> {
    const known = await this.facts.findBySlug(slug);
    if (known || !this.fallback) return known;
    const found = await this.fallback.findBySlug(slug);
    if (!found) return null;
    const { pageId, facts } = found;
    // Kept for the next lookups; an event about the page, earlier or later, wins over it.
    await this.facts.remember(pageId, facts).catch((err: unknown) => {
      getLogger().warn({ err: { message: (err as Error).message }, pageId }, 'leads: could not keep a page fact');
    });
    // Read back with the owner's plan beside it (kept from billing's 'plan.changed').
    const kept = await this.facts.findBySlug(slug);
    if (kept) return kept;
    return toSubmissionPage(pageId, {
      slug: facts.slug,
      owner_username: facts.ownerUsername,
      paused: facts.paused,
      file_url: facts.fileUrl,
      webhook_on: facts.webhookOn,
      delivery_email: facts.deliveryEmail ?? null,
      public: facts.public as unknown as SubmissionPage['public'],
    });
  }
}
