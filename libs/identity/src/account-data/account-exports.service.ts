import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { AccountDataMessages, EXPORT_TTL_HOURS, type AccountExport, type JobPayload } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { hmac, safeEqual } from '@plink/crypto';
import { getLogger } from '@plink/observability';
import { Outbox } from '@plink/queue';
import { Storage } from '@plink/storage';
import type { User } from '../users/user.entity';

interface ExportRow {
  id: string;
  user_id: number;
  status: AccountExport['status'];
  storage_key: string | null;
  size: string | number | null;
  created_at: Date;
  expires_at: Date | null;
}

const TTL_MS = EXPORT_TTL_HOURS * 3_600_000;
/** An export still pending after this long failed somewhere along its jobs: shown as failed, a new one may start. */
const PENDING_LIMIT_MS = 3_600_000;

/**
 * Settings → Account → Export my data. Each service writes its own part, one job after the other, so that no
 * service reads another's tables and the ZIP streams into the store with flat memory: identity records the export
 * (its row, and account.json in the first job), the leads service streams each page's leads as CSV into the store,
 * the pages service streams the ZIP (account.json, each page's page.json, uploads and leads.csv) into the store
 * under a private key (`exports/u{userId}/{id}.zip`, never served at /uploads), and identity marks it ready and
 * e-mails a link signed for 24 hours. The hourly sweep removes exports (and their ZIPs) after 24 hours.
 */
@Injectable()
export class AccountExportsService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    private readonly storage: Storage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts an export; one at a time per user (409 while one is being built). */
  async start(user: User): Promise<{ id: string }> {
    const id = randomUUID();
    await this.em.fork().transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?), ?)', ['identity.export', user.id]);
      const [busy] = await tx.execute<{ id: string }[]>(
        `select id from identity.account_exports where user_id = ? and status = 'pending' and created_at > now() - make_interval(secs => ?)`,
        [user.id, PENDING_LIMIT_MS / 1000],
      );
      if (busy) throw new ConflictException({ message: AccountDataMessages.exportBusy });
      await tx.execute('insert into identity.account_exports (id, user_id) values (?, ?)', [id, user.id]);
      this.outbox.record(tx, 'leads.account-export', { v: 1, exportId: id, userId: user.id, account: accountJson(user) });
    });
    getLogger().info({ userId: user.id, exportId: id }, 'account export started');
    return { id };
  }

  /** The user's export, or null (someone else's, unknown, or swept). */
  async find(userId: number, id: string): Promise<(AccountExport & { storageKey: string | null }) | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await this.em.fork().execute<ExportRow[]>('select * from identity.account_exports where id = ? and user_id = ?', [id, userId]);
    return row ? { ...toDto(row), storageKey: row.storage_key } : null;
  }

  /** The user's newest export still kept. */
  async latest(userId: number): Promise<AccountExport | null> {
    const [row] = await this.em
      .fork()
      .execute<ExportRow[]>('select * from identity.account_exports where user_id = ? order by created_at desc limit 1', [userId]);
    return row ? toDto(row) : null;
  }

  /** The export a signed link names, when the signature holds and the link has not expired. */
  async findBySignedLink(id: string, expires: string, signature: string): Promise<{ storageKey: string } | null> {
    const until = Number(expires);
    if (!Number.isSafeInteger(until) || until < Date.now() || !safeEqual(signature, this.signature(id, until))) return null;
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await this.em.fork().execute<ExportRow[]>(`select * from identity.account_exports where id = ? and status = 'ready'`, [id]);
    return row?.storage_key ? { storageKey: row.storage_key } : null;
  }

  /** The ZIP is stored ('identity.account-export-ready'): the export is ready, and its owner gets the signed link. */
  async ready(job: JobPayload<'identity.account-export-ready'>): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      const [row] = await tx.execute<(ExportRow & { email: string; username: string })[]>(
        `update identity.account_exports e set status = 'ready', storage_key = ?, size = ?, expires_at = e.created_at + make_interval(secs => ?)
           from identity.users u
          where e.id = ? and e.user_id = ? and u.id = e.user_id and e.status = 'pending'
          returning e.*, u.email, u.username`,
        [job.storageKey, job.size, TTL_MS / 1000, job.exportId, job.userId],
      );
      if (!row) return; // done already, or the account is gone
      const until = new Date(row.expires_at!).getTime();
      const link = `${this.config.appOrigin}/api/account/export/${row.id}?expires=${until}&signature=${this.signature(row.id, until)}`;
      this.outbox.record(tx, 'email.account-export-ready', {
        v: 1,
        to: { userId: row.user_id, email: row.email, username: row.username },
        link,
        expiresAt: new Date(until).toISOString(),
      });
    });
  }

  /** Removes the exports asked for more than 24 hours ago, ZIP first (a row left by a failed removal is tried again next hour). */
  async sweep(): Promise<number> {
    const rows = await this.em
      .fork()
      .execute<ExportRow[]>(`select * from identity.account_exports where created_at < now() - make_interval(secs => ?) limit 1000`, [TTL_MS / 1000]);
    for (const row of rows) {
      for await (const object of this.storage.list(`exports/u${row.user_id}/${row.id}`)) await this.storage.delete(object.key);
      await this.em.fork().execute('delete from identity.account_exports where id = ?', [row.id]);
    }
    if (rows.length > 0) getLogger().info({ removed: rows.length }, 'expired account exports removed');
    return rows.length;
  }

  private signature(id: string, until: number): string {
    return hmac(this.config.sessionSecret, `account-export:${id}:${until}`);
  }
}

function toDto(row: ExportRow): AccountExport {
  const stale = row.status === 'pending' && Date.now() - new Date(row.created_at).getTime() > PENDING_LIMIT_MS;
  return {
    id: row.id,
    status: stale ? 'failed' : row.status,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    size: row.size === null ? null : Number(row.size),
  };
}

/** account.json: the account as identity keeps it (never the password hash or tokens). */
function accountJson(user: User): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isVerified: user.isVerified,
    createdAt: user.createdAt.toISOString(),
    plan: { isPremium: user.isPremium, status: user.planStatus, periodEnd: user.planPeriodEnd?.toISOString() ?? null },
    exportedAt: new Date().toISOString(),
  };
}
