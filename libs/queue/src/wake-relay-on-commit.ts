import { ChangeSetType, type EntityManager, type EventSubscriber, type FlushEventArgs, type TransactionEventArgs } from '@mikro-orm/core';
import { OutboxMessage } from '@plink/data';

/** Work to do once the transaction that recorded some jobs has committed (never after a rollback). */
export type AfterCommit = () => Promise<void> | void;

/**
 * Runs what this process applies itself of the jobs a flush wrote (see Outbox.applyHere), with the
 * flushing EntityManager: in its transaction (`inTransaction`), or after the flush's own transaction has
 * committed. Answers what to do once that work has committed.
 */
export type ApplyHere = (em: EntityManager, messages: OutboxMessage[], inTransaction: boolean) => Promise<AfterCommit[]>;

/**
 * Wakes the outbox relay once the jobs that a unit of work recorded ({@link Outbox.record}) are committed,
 * so that no use case has to remember it, and runs the jobs this process applies itself: in the flush
 * that writes them (so in the same transaction), their after-commit work once it commits. Registered by
 * the Outbox on its ORM's event manager; transaction forks copy it.
 *
 * - A flush outside a transaction runs in a transaction of its own that has committed when the flush ends:
 *   the relay is woken and the after-commit work runs at once.
 * - A flush inside a transaction (`em.transactional`, `em.begin`) marks that transaction; the relay is
 *   woken and the after-commit work runs after it commits, never after a rollback.
 * - A savepoint (a transaction inside a transaction) hands its mark to the transaction around it when it is
 *   released, since its rows commit only with that one.
 */
export class WakeRelayOnCommit implements EventSubscriber<OutboxMessage> {
  /** Open transactions (and savepoints) whose flushes wrote outbox rows, with their after-commit work. */
  private readonly withJobs = new WeakMap<object, AfterCommit[]>();
  /** The transaction a savepoint was taken in, by the EntityManager that took it (one per nested transactional). */
  private readonly enclosing = new WeakMap<EntityManager, object>();

  constructor(
    private readonly wake: () => void,
    private readonly applyHere: ApplyHere = async () => [],
  ) {}

  getSubscribedEntities() {
    return [OutboxMessage];
  }

  async afterFlush({ em, uow }: FlushEventArgs): Promise<void> {
    const recorded = uow
      .getChangeSets()
      .filter((change) => change.type === ChangeSetType.CREATE && change.entity instanceof OutboxMessage)
      .map((change) => change.entity as OutboxMessage);
    if (recorded.length === 0) return;
    const transaction = em.getTransactionContext<object>();
    const after = await this.applyHere(em, recorded, !!transaction);
    if (transaction) {
      this.withJobs.set(transaction, [...(this.withJobs.get(transaction) ?? []), ...after]);
    } else {
      this.wake();
      await runAll(after);
    }
  }

  beforeTransactionStart({ em, transaction }: TransactionEventArgs): void {
    // Given only when a savepoint is about to be taken inside `transaction`.
    if (transaction) this.enclosing.set(em, transaction);
  }

  async afterTransactionCommit({ em, transaction }: TransactionEventArgs): Promise<void> {
    const after = transaction ? this.withJobs.get(transaction) : undefined;
    if (!transaction || !after) return;
    this.withJobs.delete(transaction);
    const outer = transaction.savepointName ? this.enclosing.get(em) : undefined;
    if (outer) {
      this.withJobs.set(outer, [...(this.withJobs.get(outer) ?? []), ...after]);
    } else {
      this.wake();
      await runAll(after);
    }
  }
}

/** After-commit work is best effort: the change is committed, so a failure here must not fail the caller. */
async function runAll(work: AfterCommit[]): Promise<void> {
  for (const step of work) {
    try {
      await step();
    } catch {
      // Each step reports its own failures (see Outbox.applyHere); the durable job still follows.
    }
  }
}
