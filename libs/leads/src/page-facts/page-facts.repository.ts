import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryEmailFacts, EventPayload, PageFacts, PublicPageDto } from '@plink/contracts';

/** A page as a submission needs it, from the leads service's own read model. */
export interface SubmissionPage {
  id: number;
  slug: string;
  ownerUsername: string;
  /**
   * Paused after the owner's downgrade: visitors get 'This page is paused' (404) and no submission is
   * taken. `public` is still filled, but must not be shown.
   */
  paused: boolean;
  /** What the visitor sees (the thank-you answer, the form shown again after a refused submission). */
  public: PublicPageDto;
  /** The file e-mailed to each new lead (null: none). */
  fileUrl: string | null;
  /** The page's webhook URL is set and on (the page's own fact). */
  webhookOn: boolean;
  /** The file e-mail as the creator wrote it (null: facts from before it, the standard e-mail). */
  deliveryEmail: DeliveryEmailFacts | null;
  /** The owner's plan as this service has it from billing's 'plan.changed' (no change heard of: Free). */
  ownerIsPro: boolean;
  /** The version of that plan (0: none heard of). */
  planVersion: number;
  /** The version of the page's facts (the time the pages service recorded the change); 0 when not known. */
  version: number;
  /** The page's owner (0: not known, facts from the pages service's answer). */
  ownerId: number;
  /** The owner has hook subscriptions (`/api/v1/hooks`), as this service has it from 'hooks.changed'. */
  ownerHasHooks: boolean;
}

/** A new lead of this page goes to its owner's hooks: an owner with hooks, on Pro. */
export function sendsToHooks(page: SubmissionPage): boolean {
  return page.ownerHasHooks && page.ownerIsPro && page.ownerId > 0;
}

/** The columns a capture reads of its page's owner (plan and hooks), joined to `leads.page_facts f`. */
export const OWNER_COLUMNS = `f.owner_id, coalesce(o.is_pro, false) as owner_is_pro, coalesce(o.version, 0) as plan_version, coalesce(h.hooks, 0) > 0 as owner_has_hooks`;
export const OWNER_JOINS = `left join leads.owner_plans o on o.owner_id = f.owner_id left join leads.owner_hooks h on h.owner_id = f.owner_id`;

/** A new lead of this page goes to its webhook: a page with its webhook on, of an owner on Pro. */
export function sendsWebhook(page: SubmissionPage): boolean {
  return page.webhookOn && page.ownerIsPro;
}

interface FactsRow {
  page_id: number;
  slug: string;
  owner_username: string;
  paused: boolean;
  file_url: string | null;
  webhook_on: boolean;
  delivery_email?: DeliveryEmailFacts | null;
  owner_is_pro?: boolean;
  plan_version?: number;
  owner_id?: number | null;
  owner_has_hooks?: boolean;
  public: PublicPageDto;
  /** bigint (a string from the driver); absent for an answer of the pages service. */
  version?: string | number;
}

/**
 * The leads service's read model of pages (`leads.page_facts`): what a submission needs of a page, kept
 * from the pages service's 'page.changed' events. Each event carries the page's whole state and a
 * version; a row only ever moves to a newer version, so duplicates and jobs run out of order change
 * nothing, and a deleted page stays deleted.
 */
@Injectable()
export class PageFactsRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Applies one event with `em` (in its transaction, if any). Answers the slugs whose cached pages must
   * go (the page's slug before and after the change), or none when the event was older than the row.
   * The deletion of a page the copy does not have records nothing (a page made before this copy existed and
   * never visited). A page is made by the gateway, which applies its creation here in the same transaction, so
   * a deletion never overtakes the page's first facts; and a deleted owner's pages stay as bare tombstones at
   * a version no event reaches ('user.deleted'), so no late event about them inserts a row.
   */
  async apply(em: EntityManager, event: EventPayload<'page.changed'>): Promise<string[]> {
    const facts = event.page;
    const rows: { old_slug: string | null; applied: boolean }[] = await em.execute(
      `with old as (select slug from leads.page_facts where page_id = ?),
       up as (
         insert into leads.page_facts as f (page_id, slug, owner_id, owner_username, paused, file_url, webhook_on, public, delivery_email, deleted, version)
         select ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), cast(? as jsonb), ?, ?
          where ? or exists (select 1 from leads.page_facts where page_id = ?)
         on conflict (page_id) do update set
           slug = coalesce(excluded.slug, f.slug), owner_id = coalesce(excluded.owner_id, f.owner_id),
           owner_username = coalesce(excluded.owner_username, f.owner_username), paused = excluded.paused,
           file_url = excluded.file_url, webhook_on = excluded.webhook_on, public = excluded.public,
           delivery_email = excluded.delivery_email, deleted = excluded.deleted, version = excluded.version
         where f.version <= excluded.version
         returning f.page_id
       )
       select (select slug from old) as old_slug, exists(select 1 from up) as applied`,
      [
        event.pageId,
        event.pageId,
        facts?.slug ?? null,
        facts?.ownerId ?? null,
        facts?.ownerUsername ?? null,
        facts?.paused ?? false,
        facts?.fileUrl ?? null,
        facts?.webhookOn ?? false,
        facts ? JSON.stringify(facts.public) : null,
        facts?.deliveryEmail ? JSON.stringify(facts.deliveryEmail) : null,
        facts === null,
        event.version,
        facts !== null,
        event.pageId,
      ],
    );
    const row = rows[0];
    if (!row?.applied) return [];
    return [...new Set([row.old_slug, facts?.slug, event.formerSlug].filter((slug): slug is string => !!slug))];
  }

  /**
   * Keeps what the pages service answered for a page this table did not know yet (version 0: any event
   * about the page, before or after, wins over it).
   */
  async remember(pageId: number, facts: PageFacts): Promise<void> {
    await this.em.fork().execute(
      `insert into leads.page_facts (page_id, slug, owner_id, owner_username, paused, file_url, webhook_on, public, delivery_email, deleted, version)
       values (?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), cast(? as jsonb), false, 0)
       on conflict (page_id) do nothing`,
      [
        pageId,
        facts.slug,
        facts.ownerId,
        facts.ownerUsername,
        facts.paused,
        facts.fileUrl,
        facts.webhookOn,
        JSON.stringify(facts.public),
        facts.deliveryEmail ? JSON.stringify(facts.deliveryEmail) : null,
      ],
    );
  }

  /** The live page of a slug (any case), or null. After a slug moved between pages, the newest fact wins. */
  async findBySlug(slug: string): Promise<SubmissionPage | null> {
    const rows: FactsRow[] = await this.em.fork().execute(
      `select f.page_id, f.slug, f.owner_username, f.paused, f.file_url, f.webhook_on, f.public, f.delivery_email, f.version, ${OWNER_COLUMNS}
         from leads.page_facts f ${OWNER_JOINS}
        where lower(f.slug) = lower(?) and not f.deleted order by f.version desc limit 1`,
      [slug],
    );
    const row = rows[0];
    return row ? toSubmissionPage(row.page_id, row) : null;
  }
}

/**
 * The owners' plans as billing publishes them ('plan.changed'), in `leads.owner_plans`: a capture reads its
 * page's owner's plan with the page (one statement), and decides from it whether the lead goes to the webhook.
 */
@Injectable()
export class OwnerPlansRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Keeps the change when its version is newer than the one kept (late or repeated messages change nothing).
   * Answers the slugs of the owner's pages whose cached facts must go, or none when nothing changed.
   */
  async apply(change: EventPayload<'plan.changed'>): Promise<string[]> {
    const rows: { slug: string | null }[] = await this.em.execute(
      `with up as (
         insert into leads.owner_plans as o (owner_id, is_pro, version) values (?, ?, ?)
         on conflict (owner_id) do update set is_pro = excluded.is_pro, version = excluded.version
           where o.version < excluded.version
         returning o.owner_id
       )
       select f.slug from up join leads.page_facts f on f.owner_id = up.owner_id and not f.deleted`,
      [change.userId, change.isPremium, change.version],
    );
    return rows.map((r) => r.slug).filter((slug): slug is string => !!slug);
  }
}

/**
 * How many hooks each owner has, as the notifications service publishes it ('hooks.changed'), in
 * `leads.owner_hooks`: read by a capture with its page (see {@link OWNER_JOINS}).
 */
@Injectable()
export class OwnerHooksRepository {
  constructor(private readonly em: EntityManager) {}

  /** Keeps a newer change; answers the slugs of the owner's pages whose cached facts must go. */
  async apply(em: EntityManager, change: EventPayload<'hooks.changed'>): Promise<string[]> {
    const rows: { slug: string | null }[] = await em.execute(
      `with up as (
         insert into leads.owner_hooks as h (owner_id, hooks, version) values (?, ?, ?)
         on conflict (owner_id) do update set hooks = excluded.hooks, version = excluded.version
           where h.version < excluded.version
         returning h.owner_id
       )
       select f.slug from up join leads.page_facts f on f.owner_id = up.owner_id and not f.deleted`,
      [change.userId, change.hooks, change.version],
    );
    return rows.map((r) => r.slug).filter((slug): slug is string => !!slug);
  }
}

/** The page as a submission needs it, from a row or from the pages service's answer. */
export function toSubmissionPage(pageId: number, facts: Omit<FactsRow, 'page_id'>): SubmissionPage {
  return {
    id: Number(pageId),
    slug: facts.slug,
    ownerUsername: facts.owner_username,
    paused: facts.paused,
    public: facts.public,
    fileUrl: facts.file_url,
    webhookOn: facts.webhook_on,
    deliveryEmail: facts.delivery_email ?? null,
    ownerIsPro: facts.owner_is_pro ?? false,
    planVersion: Number(facts.plan_version ?? 0),
    version: Number(facts.version ?? 0),
    ownerId: Number(facts.owner_id ?? 0),
    ownerHasHooks: facts.owner_has_hooks ?? false,
  };
}
