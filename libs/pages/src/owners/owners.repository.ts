import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';

/** A page owner as the pages service keeps them (table pages.owners). */
export interface Owner {
  id: number;
  username: string;
  isPremium: boolean;
}

/** An owner as identity tells them ('pages.owner-plan-changed'). */
export interface OwnerChange {
  userId: number;
  username?: string;
  isPremium?: boolean;
  /** When identity's copy of the plan last changed (null: never); orders the changes of one owner. */
  changedAt?: string | null;
}

interface OwnerRow {
  user_id: number;
  username: string;
  is_premium: boolean;
}

/**
 * The pages service's copy of what it needs of its owners: their username and plan. Identity owns the users;
 * this copy follows identity's jobs ({@link apply}), and a creator's own save fills in an owner it has not
 * heard of yet ({@link remember}). It is never read from identity.
 */
@Injectable()
export class OwnersRepository {
  constructor(private readonly em: EntityManager) {}

  /** The owner, or null when the pages service has not heard of them. */
  async find(userId: number, em: EntityManager = this.em): Promise<Owner | null> {
    const [row] = await em.execute<OwnerRow[]>('select user_id, username, is_premium from pages.owners where user_id = ?', [userId]);
    return row ? { id: row.user_id, username: row.username, isPremium: row.is_premium } : null;
  }

  /**
   * Stores an owner as identity tells them. A change older than the one kept is ignored (jobs may come
   * late or twice), so the copy ends as identity's newest. Without a username (a job from before the
   * copy existed) only an owner already kept is changed. Answers whether the copy changed.
   */
  async apply(em: EntityManager, change: OwnerChange): Promise<boolean> {
    if (change.isPremium === undefined) return false;
    const changedAt = change.changedAt ? new Date(change.changedAt) : null;
    const newer = 'pages.owners.plan_changed_at is null or (excluded.plan_changed_at is not null and excluded.plan_changed_at >= pages.owners.plan_changed_at)';
    if (change.username === undefined) {
      const rows = await em.execute<{ user_id: number }[]>(
        `update pages.owners set is_premium = ?, plan_changed_at = coalesce(?, plan_changed_at), updated_at = now()
          where user_id = ? and (plan_changed_at is null or (cast(? as timestamptz) is not null and cast(? as timestamptz) >= plan_changed_at)) returning user_id`,
        [change.isPremium, changedAt, change.userId, changedAt, changedAt],
      );
      return rows.length > 0;
    }
    const rows = await em.execute<{ user_id: number }[]>(
      `insert into pages.owners (user_id, username, is_premium, plan_changed_at) values (?, ?, ?, ?)
       on conflict (user_id) do update set username = excluded.username, is_premium = excluded.is_premium,
         plan_changed_at = coalesce(excluded.plan_changed_at, pages.owners.plan_changed_at), updated_at = now()
         where ${newer}
       returning user_id`,
      [change.userId, change.username, change.isPremium, changedAt],
    );
    return rows.length > 0;
  }

  /**
   * The signed-in creator as their request carries them (identity's copy, read for the request): kept when
   * the pages service has not heard of them yet. Their plan is taken only while no job of identity's has
   * told it (then the request knows best); after that the jobs alone change it.
   */
  async remember(em: EntityManager, user: Owner): Promise<void> {
    await em.execute(
      `insert into pages.owners (user_id, username, is_premium) values (?, ?, ?)
       on conflict (user_id) do update set username = excluded.username, is_premium = excluded.is_premium, updated_at = now()
         where pages.owners.plan_changed_at is null
           and (pages.owners.username <> excluded.username or pages.owners.is_premium <> excluded.is_premium)`,
      [user.id, user.username, user.isPremium],
    );
  }
}
