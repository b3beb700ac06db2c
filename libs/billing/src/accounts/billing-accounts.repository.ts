import { Injectable } from '@nestjs/common';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { BillingAccount } from './billing-account.entity';

/** What a checkout needs of the payer's account: their Stripe customer and their last Checkout Session. */
export interface CheckoutState {
  customerId: string | null;
  sessionId: string | null;
  /** A timestamptz as the driver answers it to a raw query (text). */
  expiresAt: Date | string | null;
  withTrial: boolean | null;
}

/** The Checkout Session a checkout opened, stored on the account with the person it is for. */
export interface OpenedCheckout {
  personKey: string;
  sessionId: string;
  expiresAt: Date;
  withTrial: boolean;
}

interface CheckoutRow {
  stripe_customer_id: string | null;
  checkout_session_id: string | null;
  checkout_expires_at: Date | string | null;
  checkout_with_trial: boolean | null;
}

/**
 * The billing service's only door to billing.accounts (one row per user who ever had a plan change). Reads
 * outside a transaction run in a context of their own; the locking reads and the writes take the caller's
 * transaction (`tx`), whose boundaries the use cases keep.
 */
@Injectable()
export class BillingAccountsRepository {
  constructor(private readonly em: EntityManager) {}

  /** The stored account, read in a context of its own (null: no plan change ever happened for the user). */
  find(userId: number): Promise<BillingAccount | null> {
    return this.em.fork().findOne(BillingAccount, { userId });
  }

  /**
   * The user's account, locked for this transaction (created first when the user has none): every plan
   * change takes this lock, so the changes of one user are serialised.
   */
  async lockAccount(tx: EntityManager, userId: number): Promise<BillingAccount> {
    await this.create(tx, userId);
    return tx.findOneOrFail(BillingAccount, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** The user's account locked for this transaction, when they have one (none is created). */
  lockIfExists(tx: EntityManager, userId: number): Promise<BillingAccount | null> {
    return tx.findOne(BillingAccount, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /**
   * The payer's checkout state, its row locked for this transaction (created first when they have none):
   * two checkouts at once take turns, so the second finds the customer and the session the first stored.
   */
  async lockForCheckout(tx: EntityManager, userId: number): Promise<CheckoutState> {
    await this.create(tx, userId);
    const [row] = await tx.execute<CheckoutRow[]>(
      'select stripe_customer_id, checkout_session_id, checkout_expires_at, checkout_with_trial from billing.accounts where user_id = ? for update',
      [userId],
    );
    return { customerId: row!.stripe_customer_id, sessionId: row!.checkout_session_id, expiresAt: row!.checkout_expires_at, withTrial: row!.checkout_with_trial };
  }

  /** Stores the Checkout Session a checkout opened (in the checkout's transaction). */
  async saveCheckout(tx: EntityManager, userId: number, checkout: OpenedCheckout): Promise<void> {
    await tx.execute(
      'update billing.accounts set person_key = ?, checkout_session_id = ?, checkout_expires_at = ?, checkout_with_trial = ?, updated_at = now() where user_id = ?',
      [checkout.personKey, checkout.sessionId, checkout.expiresAt, checkout.withTrial, userId],
    );
  }

  /** Stores the user's Stripe customer (in the checkout's transaction that created it). */
  async saveCustomer(tx: EntityManager, userId: number, customerId: string): Promise<void> {
    await tx.execute('update billing.accounts set stripe_customer_id = ?, updated_at = now() where user_id = ?', [customerId, userId]);
  }

  /** Records the newest profile version applied to the user's Stripe customer (in the caller's transaction). */
  async saveProfileVersion(tx: EntityManager, userId: number, version: number): Promise<void> {
    await tx.execute('update billing.accounts set profile_version = ?, updated_at = now() where user_id = ?', [version, userId]);
  }

  /** The user whose account stores this Stripe customer; null when none does. */
  async findUserByCustomer(customerId: string): Promise<number | null> {
    const [row] = await this.em.fork().execute<{ user_id: number }[]>('select user_id from billing.accounts where stripe_customer_id = ?', [customerId]);
    return row ? row.user_id : null;
  }

  /** The Stripe customer stored on the user's account (null: none yet); null as a whole when the user has no account. */
  async findCustomerOf(userId: number): Promise<{ customerId: string | null } | null> {
    const [row] = await this.em.fork().execute<{ stripe_customer_id: string | null }[]>('select stripe_customer_id from billing.accounts where user_id = ?', [userId]);
    return row ? { customerId: row.stripe_customer_id } : null;
  }

  /** Users whose operator grant ran out by `now`, the longest expired first, at most `limit`. */
  async findExpiredGrants(now: Date, limit: number): Promise<number[]> {
    const rows: { user_id: number }[] = await this.em.fork().execute(
      `select user_id from billing.accounts
        where source = 'operator' and is_premium and operator_expires_at is not null and operator_expires_at <= ?
        order by operator_expires_at limit ?`,
      [now, limit],
    );
    return rows.map((row) => row.user_id);
  }

  /**
   * Users the lead removal may be due for: downgraded at or before `downgradedBy`, still not Pro, their paused
   * pages' leads not removed yet; the longest downgraded first, at most `limit`.
   */
  async findLeadRemovalCandidates(downgradedBy: Date, limit: number): Promise<number[]> {
    const rows: { user_id: number }[] = await this.em.fork().execute(
      `select user_id from billing.accounts
        where downgraded_at is not null and downgraded_at <= ? and not is_premium and leads_removed_at is null
        order by downgraded_at limit ?`,
      [downgradedBy, limit],
    );
    return rows.map((row) => row.user_id);
  }

  private async create(tx: EntityManager, userId: number): Promise<void> {
    await tx.execute('insert into billing.accounts (user_id) values (?) on conflict (user_id) do nothing', [userId]);
  }
}
