import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';

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

/** The billing service's only door to billing.trials_taken: every free trial that started. */
@Injectable()
export class TrialsTakenRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * A trial with the subject's e-mail, card or customer (one with the card first) that started before
   * `before`: ordered by start, then by the order trials were recorded in (a trial not recorded yet comes
   * after every other). Says which of the subject's marks it has; null when there is none.
   */
  async findMatch(subject: TrialSubject, before: LaterTrial): Promise<{ person: boolean | null; card: boolean | null } | null> {
    const [row] = await this.em.fork().execute<{ person: boolean | null; card: boolean | null }[]>(
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
    return row ?? null;
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
