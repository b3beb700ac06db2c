import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { EventPayload } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { PageFactsChanges } from './page-facts-changes';
import { OwnerHooksRepository, OwnerPlansRepository, PageFactsRepository } from './page-facts.repository';

/** The leads queue's 'page.changed': the read model follows the page, and every replica drops it from its cache. */
@Injectable()
export class ApplyPageChangeService {
  constructor(
    private readonly em: EntityManager,
    private readonly facts: PageFactsRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  async execute(payload: EventPayload<'page.changed'>): Promise<void> {
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
    private readonly hooks: OwnerHooksRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  onModuleInit() {
    this.outbox.applyHere('page.changed', async (em, payload) => {
      const slugs = await this.facts.apply(em, payload);
      return slugs.length > 0 ? () => this.changes.publish(slugs) : undefined;
    });
    // A hook made through the API (served by the gateway too) counts for the very next submission.
    this.outbox.applyHere('hooks.changed', async (em, payload) => {
      const slugs = await this.hooks.apply(em, payload);
      return slugs.length > 0 ? () => this.changes.publish(slugs) : undefined;
    });
  }
}

/**
 * The leads queue's 'plan.changed' (published by billing): the owner's plan is kept beside the page facts, and
 * the owner's pages are dropped from every replica's cache, so the next capture reads the plan now in force.
 */
@Injectable()
export class ApplyOwnerPlanService {
  constructor(
    private readonly plans: OwnerPlansRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  async execute(payload: EventPayload<'plan.changed'>): Promise<void> {
    const slugs = await this.plans.apply(payload);
    if (slugs.length > 0) await this.changes.publish(slugs);
  }
}

/** The leads queue's 'hooks.changed' (published by notifications): the owner's hook count, and the owner's pages dropped from every cache. */
@Injectable()
export class ApplyOwnerHooksService {
  constructor(
    private readonly em: EntityManager,
    private readonly hooks: OwnerHooksRepository,
    private readonly changes: PageFactsChanges,
  ) {}

  async execute(payload: EventPayload<'hooks.changed'>): Promise<void> {
    const slugs = await this.hooks.apply(this.em, payload);
    if (slugs.length > 0) await this.changes.publish(slugs);
  }
}
