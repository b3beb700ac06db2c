import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { EventPayload } from '@plink/contracts';
import { nativePoolOf } from '@plink/data';
import { WebhookSecretOpener } from './webhook-secret-opener';

/** A page's webhook endpoint as deliveries see it: the notifications service's own copy (see the migration). */
export interface WebhookEndpoint {
  pageId: number;
  ownerId: number;
  url: string | null;
  /** The secrets that sign now, opened (the new one first; two during 24 h after a rotation). */
  secrets: string[];
  enabled: boolean;
  /** When the current URL started receiving: failures before it do not count. */
  enabledAt: Date | null;
  /** The version of the newest change this copy has applied (the pages service's version of that change). */
  seenAt: Date;
}

interface EndpointRow {
  page_id: number;
  owner_id: number;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  enabled: boolean;
  enabled_at: Date | null;
  seen_at: Date;
}

/** Tombstones of deleted pages are kept this long (a late change of the page must find one). */
const TOMBSTONE_DAYS = 30;

/** The endpoint columns a change replaces when it is newer than the one the copy has. */
const ENDPOINT_COLUMNS = ['owner_id', 'url', 'secret', 'previous_secret', 'previous_secret_until', 'enabled', 'enabled_at', 'deleted', 'changed_at'];

/** The notifications service's copy of the pages' webhook endpoints, fed by 'webhook-endpoint.changed'. */
@Injectable()
export class WebhookEndpointsRepository {
  /** The ORM's own `pg` pool: every delivery's lookup is a prepared statement (see WebhookLogRepository). */
  private readonly pool = nativePoolOf(() => this.em);

  constructor(
    private readonly em: EntityManager,
    private readonly box: WebhookSecretOpener,
  ) {}

  /**
   * Applies a change, in one statement. Changes may arrive out of order (retries, concurrent jobs): the
   * endpoint's fields are taken only from a change at least as new as the one applied last (`changed_at`).
   */
  async apply(change: EventPayload<'webhook-endpoint.changed'>): Promise<void> {
    const endpoint = change.endpoint;
    await this.em.execute(
      `insert into notifications.webhook_endpoints as e
         (page_id, owner_id, url, secret, previous_secret, previous_secret_until, enabled, enabled_at, deleted, changed_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (page_id) do update set
         ${ENDPOINT_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}
         where excluded.changed_at >= e.changed_at`,
      [
        change.pageId,
        change.ownerId,
        endpoint?.url ?? null,
        endpoint?.secret ?? null,
        endpoint?.previousSecret ?? null,
        endpoint?.previousSecretUntil ?? null,
        endpoint?.enabled ?? false,
        endpoint?.enabledAt ?? null,
        endpoint === null,
        change.at,
      ],
    );
  }

  /**
   * A deleted account ('user.deleted'): the endpoints of its pages (tombstones too: they name the owner) and
   * their delivery logs (messages, with their attempts), in one transaction. Safe to repeat. Answers how many
   * endpoints went.
   */
  async removeOwner(userId: number): Promise<number> {
    return this.em.fork().transactional(async (tx) => {
      const pages = `select page_id from notifications.webhook_endpoints where owner_id = ?`;
      await tx.execute(`delete from notifications.webhook_attempts where page_id in (${pages})`, [userId]);
      await tx.execute(`delete from notifications.webhook_messages where page_id in (${pages})`, [userId]);
      const removed = await tx.execute<{ page_id: number }[]>('delete from notifications.webhook_endpoints where owner_id = ? returning page_id', [userId]);
      return removed.length;
    });
  }

  /**
   * The endpoints of these pages (one statement; a page without one now, or deleted, is missing from the map),
   * and which of them the copy has never heard of: a page whose
   * first 'webhook-endpoint.changed' has not been applied yet (its job runs alongside the lead's delivery), as
   * opposed to a page without an endpoint now (URL cleared, page deleted: the copy keeps a row for those).
   */
  async lookup(pageIds: number[], now = new Date()): Promise<{ endpoints: Map<number, WebhookEndpoint>; unknown: Set<number> }> {
    const endpoints = new Map<number, WebhookEndpoint>();
    const ids = [...new Set(pageIds)];
    const unknown = new Set(ids);
    if (ids.length === 0) return { endpoints, unknown };
    const { rows } = await (await this.pool()).query<EndpointRow & { deleted: boolean }>({
      name: 'webhook_endpoints_of_pages',
      text: `select page_id, owner_id, url, secret, previous_secret, previous_secret_until, enabled, enabled_at, deleted,
              changed_at as seen_at
         from notifications.webhook_endpoints where page_id = any($1::int[])`,
      values: [ids],
    });
    for (const row of rows) {
      unknown.delete(Number(row.page_id));
      if (!row.deleted) endpoints.set(Number(row.page_id), this.toEndpoint(row, now));
    }
    return { endpoints, unknown };
  }

  async find(pageId: number): Promise<WebhookEndpoint | null> {
    return (await this.lookup([pageId])).endpoints.get(pageId) ?? null;
  }

  /** Drops the rows of pages deleted more than 30 days ago (the daily clean-up). Answers how many went. */
  async clean(): Promise<number> {
    const gone: unknown[] = await this.em.execute(
      `delete from notifications.webhook_endpoints where deleted and changed_at < now() - interval '${TOMBSTONE_DAYS} days' returning page_id`,
    );
    return gone.length;
  }

  private toEndpoint(row: EndpointRow, now: Date): WebhookEndpoint {
    const current = row.secret ? this.box.open(row.secret) : null;
    const previous =
      row.secret && row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until).getTime() > now.getTime()
        ? this.box.open(row.previous_secret)
        : null;
    return {
      pageId: Number(row.page_id),
      ownerId: Number(row.owner_id),
      url: row.url,
      secrets: [current, previous].filter((secret): secret is string => secret !== null),
      enabled: row.enabled,
      enabledAt: row.enabled_at ? new Date(row.enabled_at) : null,
      seenAt: new Date(row.seen_at),
    };
  }
}
