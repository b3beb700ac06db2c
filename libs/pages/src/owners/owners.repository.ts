import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';

/** A page owner as the pages service keeps them (table pages.owners). */
export interface Owner {
  id: number;
  username: string;
  isPremium: boolean;
  /** The account e-mail as the owner's last save carried it (null before it; the delivery e-mail's reply-to). */
  email?: string | null;
}

/** An owner's plan as billing publishes it ('plan.changed'). */
export interface OwnerChange {
  userId: number;
  isPremium?: boolean;
  /** Billing's plan version (1 for the first change); orders the changes of one owner. */
  version?: number;
}

interface OwnerRow {
  /** Null while only the plan is known (see {@link OwnersRepository.apply}). */
  user_id: number;
  username: string;
  is_premium: boolean;
  email: string | null;
}

/**
 * The pages service's copy of what it needs of its owners: their username and plan. The plan follows
 * billing's 'plan.changed' ({@link apply}), the username and e-mail identity's 'user.changed' ({@link applyProfile}) and, until
 * a rename has come, the creator's own saves ({@link remember}); neither is ever read from another service.
 */
@Injectable()
export class OwnersRepository {
  constructor(private readonly em: EntityManager) {}

  /** The owner, or null when the pages service has not heard of them. */
  async find(userId: number, em: EntityManager = this.em): Promise<Owner | null> {
    // A row without a username is a plan heard of before the owner's first save: not an owner yet.
    const [row] = await em.execute<OwnerRow[]>('select user_id, username, is_premium, email from pages.owners where user_id = ? and username is not null', [userId]);
    return row ? { id: row.user_id, username: row.username, isPremium: row.is_premium, email: row.email } : null;
  }

  /**
   * Stores an owner's plan as billing publishes it. A version not newer than the one kept changes nothing
   * (messages may come late or twice), so the copy ends as billing's newest. The plan of a user who has not
   * saved a page yet is kept too (without a username, which their first save brings): that save then finds
   * the plan billing decided, whatever identity's copy said in its request. Answers whether the copy changed.
   */
  async apply(em: EntityManager, change: OwnerChange): Promise<boolean> {
    if (change.isPremium === undefined || change.version === undefined) return false;
    const rows = await em.execute<{ user_id: number }[]>(
      `insert into pages.owners as o (user_id, username, is_premium, plan_version) values (?, null, ?, ?)
       on conflict (user_id) do update set is_premium = excluded.is_premium, plan_version = excluded.plan_version, updated_at = now()
         where o.plan_version < excluded.plan_version
       returning user_id`,
      [change.userId, change.isPremium, change.version],
    );
    return rows.length > 0;
  }

  /**
   * Stores an owner's username and e-mail as identity publishes them ('user.changed'). A version not newer than
   * the one kept changes nothing, so the copy ends as identity's newest. An owner not heard of yet is kept with
   * them (and the Free plan until billing or their first save says otherwise). Answers whether the copy changed.
   */
  async applyProfile(em: EntityManager, change: { userId: number; username: string; email: string; version: number }): Promise<boolean> {
    const rows = await em.execute<{ user_id: number }[]>(
      `insert into pages.owners as o (user_id, username, email, profile_version) values (?, ?, ?, ?)
       on conflict (user_id) do update set username = excluded.username, email = excluded.email,
         profile_version = excluded.profile_version, updated_at = now()
         where o.profile_version < excluded.profile_version
       returning user_id`,
      [change.userId, change.username, change.email, change.version],
    );
    return rows.length > 0;
  }

  /**
   * The signed-in creator as their request carries them (identity's copy, read for the request): kept when
   * the pages service has not heard of them yet. Their plan is taken only while no 'plan.changed' has reached
   * this copy (then the request knows best); after that those alone change it. Their username and e-mail (the
   * default reply-to of their pages' delivery e-mail) likewise only while no 'user.changed' has (a request read
   * before a change must not undo it). Answers the owner as this copy then has them (what the page's facts
   * name), in the same statement: the row the upsert wrote, or the one it left as it was.
   */
  async remember(em: EntityManager, user: Owner): Promise<Owner> {
    const [row] = await em.execute<OwnerRow[]>(
      `with kept as (
         insert into pages.owners as o (user_id, username, is_premium, email) values (?, ?, ?, ?)
         on conflict (user_id) do update set
           username = case when o.profile_version = 0 or o.username is null then excluded.username else o.username end,
           email = case when o.profile_version = 0 then coalesce(excluded.email, o.email) else o.email end,
           is_premium = case when o.plan_version = 0 then excluded.is_premium else o.is_premium end, updated_at = now()
           where (o.profile_version = 0 and o.username is distinct from excluded.username) or o.username is null
             or (o.plan_version = 0 and o.is_premium <> excluded.is_premium)
             or (o.profile_version = 0 and o.email is distinct from coalesce(excluded.email, o.email))
         returning user_id, username, is_premium, email)
       select user_id, username, is_premium, email from kept
       union all
       select user_id, username, is_premium, email from pages.owners where user_id = ? and not exists (select 1 from kept)`,
      [user.id, user.username, user.isPremium, user.email ?? null, user.id],
    );
    return row ? { id: row.user_id, username: row.username, isPremium: row.is_premium, email: row.email } : user;
  }
}
