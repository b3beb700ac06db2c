import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { JobPayload } from '@plink/contracts';
import { Outbox } from '@plink/platform';
import { PageFactsChanges } from './page-facts-changes';
import { PageFactsRepository } from './page-facts.repository';

/** The leads queue's 'leads.page-changed': the read model follows the page, and every replica drops it from its cache. */
@Injectable()
export class ApplyPageChangeService {
  constructor(
    private readonly em: EntityManager,
    private readonly facts: PageFactsRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  async execute(payload: JobPayload<'leads.page-changed'>): Promise<void> {
    const slugs = await this.facts.apply(this.em, payload);
    if (slugs.length > 0) await this.changes.publish(slugs);
  }
}

/**
 * In a process that takes submissions (the gateway, which also runs the pages calls), page changes reach
 * the read model in the transaction that makes them (Outbox.applyHere), and the cached page is dropped
 * once it commits: a visitor who submits right after the creator published or changed the page meets the
 * page as it now is, without waiting for the leads worker. The relayed job still follows (for the changes
 * other processes make, and idempotent here).
 */
@Injectable()
export class ApplyPageChangesHere implements OnModuleInit {
  constructor(
    private readonly outbox: Outbox,
    private readonly facts: PageFactsRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  onModuleInit() {
    this.outbox.applyHere('leads.page-changed', async (em, payload) => {
      const slugs = await this.facts.apply(em, payload);
      return slugs.length > 0 ? () => this.changes.publish(slugs) : undefined;
    });
  }
}
