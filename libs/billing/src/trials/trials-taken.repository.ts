import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { keyedHash } from '@plink/crypto';

/** The purpose the remembered trials' key is derived for (from SESSION_SECRET). */
const TRIAL_MEMORY = 'trial-memory';

/** What tells a trial's person apart; any of them seen on another trial means the person had theirs. */
export interface TrialSubject {
  personKey: string | null;
  cardFingerprint: string | null;
  customerId: string | null;
}

/** A trial that started, with what tells its person apart (one row per subscription). */
export interface TakenTrial extends TrialSubject {
  subscriptionId: string;
  userId: number;
  startedAt: Date;
}

/** The trial a match must have started before: its start (null: any trial matches) and its subscription. */
interface LaterTrial {
  startedAt: Date | null;
  subscriptionId: string;
}

/**
 * The billing service's only door to billing.trials_taken (every free trial that started) and to
 * billing.trials_remembered (the keyed hash of the address of each trial whose account was deleted).
 */
@Injectable()
export class TrialsTakenRepository {
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What is remembered of a person key once its account is gone: its HMAC under a key derived from SESSION_SECRET. */
  private rememberedOf(personKey: string): string {
    return keyedHash(this.config.sessionSecret, TRIAL_MEMORY, personKey);
  }

  /**
   * A trial with the subject's e-mail, card or customer (one with the card first) that started before
   * `before`: ordered by start, then by the order trials were recorded in (a trial not recorded yet comes
   * after every other). Says which of the subject's marks it has; null when there is none. A trial of a
   * deleted account with the subject's address (remembered) started before any other: it always matches.
   */
  async findMatch(subject: TrialSubject, before: LaterTrial): Promise<{ person: boolean | null; card: boolean | null } | null> {
    const em = this.em.fork();
    const [row] = await em.execute<{ person: boolean | null; card: boolean | null }[]>(
      `select person_key = ? as person, card_fingerprint = ? as card from billing.trials_taken
       where (person_key = ? or card_fingerprint = ? or stripe_customer_id = ?)
         and (?::timestamptz is null or (trial_started_at, recorded_seq) < (?::timestamptz,
           coalesce((select recorded_seq from billing.trials_taken where stripe_subscription_id = ?), 9223372036854775807)))
       order by (card_fingerprint = ?) desc nulls last limit 1`,
      [
        subject.personKey,
        subject.cardFingerprint,
        subject.personKey,
        subject.cardFingerprint,
        subject.customerId,
        before.startedAt,
        before.startedAt,
        before.subscriptionId,
        subject.cardFingerprint,
      ],
    );
    if (row) return row;
    if (!subject.personKey) return null;
    const remembered = await em.execute('select 1 from billing.trials_remembered where person_hash = ?', [this.rememberedOf(subject.personKey)]);
    return remembered.length > 0 ? { person: true, card: false } : null;
  }

  /**
   * Before a deleted account's trials are removed (in its transaction): keeps the keyed hash of each of their
   * person keys, and nothing else of them.
   */
  async rememberTrialsOf(tx: EntityManager, userId: number): Promise<void> {
    const rows = await tx.execute<{ person_key: string }[]>('select distinct person_key from billing.trials_taken where user_id = ? and person_key is not null', [userId]);
    for (const { person_key: personKey } of rows) {
      await tx.execute('insert into billing.trials_remembered (person_hash) values (?) on conflict do nothing', [this.rememberedOf(personKey)]);
    }
  }

  /**
   * Records a trial (again: a card added since fills in its fingerprint; the person first recorded is kept).
   */
  async record(trial: TakenTrial): Promise<void> {
    await this.em.fork().execute(
      `insert into billing.trials_taken (stripe_subscription_id, user_id, person_key, card_fingerprint, stripe_customer_id, trial_started_at)
       values (?, ?, ?, ?, ?, ?)
       on conflict (stripe_subscription_id) do update set
         person_key = coalesce(billing.trials_taken.person_key, excluded.person_key),
         card_fingerprint = coalesce(excluded.card_fingerprint, billing.trials_taken.card_fingerprint)`,
      [trial.subscriptionId, trial.userId, trial.personKey, trial.cardFingerprint, trial.customerId, trial.startedAt],
    );
  }
}
