import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { EVENTS, JOBS, queuesOfEvent, type EventName, type EventPayload, type JobName, type JobPayload, type MessageName } from '@plink/contracts';
import { nativePoolOf, type NativePgPool, OutboxMessage } from '@plink/data';
import { currentCorrelationId, warnThrottled } from '@plink/observability';
import { JobQueue } from './job-queue';
import { relayedJobs } from './relayed-jobs';
import { WakeRelayOnCommit, type AfterCommit } from './wake-relay-on-commit';

const POLL_MS = 1_000;
/** Most jobs one pass moves (one statement, one Redis round trip per queue). */
const BATCH = 500;
/** Under load, at most one pass per window (see {@link Outbox.kick}). */
const RELAY_WINDOW_MS = 25;
const ADD_TIMEOUT_MS = 5_000;

/** A job whose `idField` is filled, in SQL, with the id of the row it belongs to (see {@link Outbox.writeWithJobs}). */
export interface DeferredJob {
  name: JobName;
  payload: Record<string, unknown>;
  idField: string;
  /**
   * A field filled, in SQL too, with the statement's time (`now()`, the time a row's `default now()` columns
   * get): a job that tells the row's creation time tells the very one stored.
   */
  timeField?: string;
}

/**
 * The jobs of one row that a statement is about to create ({@link Outbox.jobsForNewRow}): checked against
 * their contracts and tagged with the correlation id of the request that asked for them. Opaque: pass it
 * as that row's value in the statement's jobs column.
 */
export type NewRowJobs = string & { readonly __newRowJobs: true };

/** The statement run by {@link Outbox.writeWithJobs}. */
export interface StatementWithJobs {
  /** Name of the prepared statement (parsed and planned once per connection); one name, one text. */
  name?: string;
  /**
   * The statement's text. `recordJobs(rows, idColumn, jobsColumn)` gives the CTE that records the jobs
   * (`outbox_jobs as (…)`): put it in the statement's `with` list after `rows`, a CTE with one row per new
   * row, its id in `idColumn` and its {@link NewRowJobs} in `jobsColumn` (jsonb; null: no jobs).
   */
  text: (recordJobs: (rows: string, idColumn: string, jobsColumn: string) => string) => string;
  values: unknown[];
}

/**
 * What a process that also holds the consumer's data does with a job in the transaction that records it
 * (see {@link Outbox.applyHere}); it may answer work to do once that transaction has committed.
 */
export type InProcessHandler<N extends MessageName> = (em: EntityManager, payload: JobPayload<N>) => Promise<AfterCommit | void>;

interface OutboxRow {
  id: string;
  queue: string;
  job_name: string;
  payload: Record<string, unknown>;
  correlation_id: string;
  created_at: Date;
  available_at: Date;
  relay_attempts: number;
}

/**
 * The transactional outbox, the one way a job or an event that follows a database change is recorded:
 *
 * - {@link record} writes the job in the caller's unit of work (its EntityManager), so it commits or rolls
 *   back with the caller's change; the relay is woken once that work commits ({@link WakeRelayOnCommit}).
 * - {@link publish} does the same for an event, with one message per subscriber, each on its own queue.
 * - {@link writeWithJobs} runs one SQL statement that creates rows and records their jobs with them (the
 *   lead capture's group commit), and wakes the relay after it.
 *
 * The relay moves committed rows to BullMQ and deletes them. Several processes may relay at once (rows are
 * claimed with SKIP LOCKED); each also looks every second, for rows another process recorded.
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  /** Whether this process moves rows to BullMQ (see {@link leaveRelayToOthers}). */
  private relays = true;
  private running?: Promise<number>;
  private again = false;
  private waiting?: NodeJS.Timeout;
  private stopped = false;
  /** The ORM's own `pg` pool (shared with every other query). */
  private readonly nativePool = nativePoolOf(() => this.orm.em);
  private readonly here = new Map<MessageName, InProcessHandler<MessageName>>();
  /** The messages recorded under correlation ids this process follows (see {@link follow}). */
  private readonly followed = new Map<string, { id: string; queue: string }[]>();

  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
  ) {
    orm.em.getEventManager().registerSubscriber(
      new WakeRelayOnCommit(
        () => this.kick(),
        (em, messages, inTransaction) => this.runHere(em as EntityManager, messages, inTransaction),
      ),
    );
  }

  /**
   * Has this process apply the jobs named `name` itself, in the flush that records them (so in the same
   * transaction as the change they follow, when there is one; right after its commit otherwise), besides
   * relaying them as usual. For a read model that the process answering requests reads: the change is
   * visible to the very next request, while the relayed job keeps the other processes' copies right (so
   * the handler and the job's consumer must be idempotent, and tolerate either order). A handler that
   * throws inside the transaction fails the change it follows (nothing half done); after a flush that
   * committed on its own, its error is logged and the relayed job follows. The work it answers runs once
   * the change has committed (errors there are logged too). One handler per job name.
   */
  applyHere<N extends MessageName>(name: N, handler: InProcessHandler<N>): void {
    if (this.here.has(name)) throw new Error(`"${name}" is already applied in this process`);
    this.here.set(name, handler as unknown as InProcessHandler<MessageName>);
  }

  private async runHere(em: EntityManager, messages: OutboxMessage[], inTransaction: boolean): Promise<AfterCommit[]> {
    const after: AfterCommit[] = [];
    const handled = new Set<string>();
    for (const message of messages) {
      const handler = this.here.get(message.jobName as MessageName);
      if (!handler) continue;
      // An event has a message per subscriber, with one payload: applied here once.
      const key = `${message.jobName}\u0000${JSON.stringify(message.payload)}`;
      if (handled.has(key)) continue;
      handled.add(key);
      let next: AfterCommit | void;
      try {
        next = await handler(em, message.payload as JobPayload<MessageName>);
      } catch (err) {
        if (inTransaction) throw err;
        // The change is committed already: the caller must not see it fail; the relayed job applies it.
        warnThrottled('outbox', err, 'outbox: an in-process job failed after its change committed', { job: message.jobName });
        continue;
      }
      if (next) {
        const step = next;
        after.push(async () => {
          try {
            await step();
          } catch (err) {
            warnThrottled('outbox', err, 'outbox: work after an in-process job failed', { job: message.jobName });
          }
        });
      }
    }
    return after;
  }

  /** Records a job in the caller's unit of work; it is relayed once that work is committed. */
  record<N extends JobName>(em: EntityManager, name: N, payload: JobPayload<N>): void {
    const parsed = JOBS[name].schema.parse(payload) as Record<string, unknown>;
    this.persist(em, JOBS[name].queue, name, parsed);
  }

  /**
   * Publishes an event (declared in the contracts' events.ts) in the caller's unit of work: one message per
   * subscriber, on that subscriber's queue, relayed once the work is committed. Only the event's owner
   * publishes it; every copy is then one hop from the change.
   */
  publish<E extends EventName>(em: EntityManager, event: E, payload: EventPayload<E>): void {
    const parsed = EVENTS[event].schema.parse(payload) as Record<string, unknown>;
    for (const queue of queuesOfEvent(event)) this.persist(em, queue, event, parsed);
  }

  private persist(em: EntityManager, queue: string, name: MessageName, payload: Record<string, unknown>): void {
    const id = randomUUID();
    const correlationId = currentCorrelationId() ?? randomUUID();
    em.persist(em.create(OutboxMessage, { id, queue, jobName: name, payload, correlationId }));
    this.followed.get(correlationId)?.push({ id, queue });
  }

  /**
   * Has this process keep the ids and queues of the messages it records under `correlationId` from now on
   * (for a short-lived process that waits for its change to be applied everywhere: the operator's command).
   * The list is the one {@link recordedUnder} answers.
   */
  follow(correlationId: string): void {
    if (!this.followed.has(correlationId)) this.followed.set(correlationId, []);
  }

  /** The messages recorded under a followed correlation id (the queue job of each has the message's id). */
  recordedUnder(correlationId: string): readonly { id: string; queue: string }[] {
    return this.followed.get(correlationId) ?? [];
  }

  /**
   * The jobs of a row that a later {@link writeWithJobs} statement creates, whose payloads need that row's
   * id (written into each job's `idField`); null when there are none. Checked here, in the request that
   * asks for them (a bad payload throws now, not in a statement shared with other requests), and tagged
   * with its correlation id.
   */
  jobsForNewRow(jobs: DeferredJob[]): NewRowJobs | null {
    if (jobs.length === 0) return null;
    const correlationId = currentCorrelationId() ?? randomUUID();
    return JSON.stringify(
      jobs.map((job) => {
        const placeholders = { [job.idField]: 1, ...(job.timeField ? { [job.timeField]: new Date().toISOString() } : {}) };
        const parsed = JOBS[job.name].schema.parse({ ...job.payload, ...placeholders }) as Record<string, unknown>;
        const payload = Object.fromEntries(Object.entries(parsed).filter(([key]) => !(key in placeholders)));
        return { queue: JOBS[job.name].queue, job_name: job.name, payload, id_field: job.idField, time_field: job.timeField ?? null, correlation_id: correlationId };
      }),
    ) as NewRowJobs;
  }

  /**
   * Runs one statement that creates rows and, in the same statement, records each new row's jobs
   * ({@link jobsForNewRow}, written into the statement through `recordJobs`, see {@link StatementWithJobs}):
   * the rows and their jobs commit together or not at all, in one round trip. It runs on its own on the
   * ORM's `pg` pool (so it commits by itself), and the relay is woken once it has. Returns its rows.
   */
  async writeWithJobs<R extends Record<string, unknown>>(statement: StatementWithJobs): Promise<R[]> {
    const pool = await this.nativePool();
    const result = await pool.query<R>({ name: statement.name, text: statement.text(recordJobsSql), values: statement.values });
    this.kick();
    return result.rows;
  }

  /**
   * Asks for a relay pass soon (after a commit: see {@link record} and {@link writeWithJobs}), instead of at the next poll. A kick while no pass runs or
   * waits starts one at once, so a lone job leaves without delay; kicks that come while a pass runs share
   * one pass, {@link RELAY_WINDOW_MS} after it ends (more kicks in that wait join it). Under load a pass
   * then moves a window's worth of jobs (a few hundred at thousands of leads a second) rather than the
   * couple of lead batches committed during the previous pass: measured at 50 connections (npm run bench,
   * alternating runs), a 25 ms window took the submissions from 0.62–0.80× to 0.84–0.95× of the raw insert,
   * since each pass has a fixed cost in PostgreSQL, Redis and the gateway. A full pass means a backlog (a
   * burst, an outage just over): the next one starts at once.
   */
  /**
   * For a short-lived process (the operator's command): what it records waits in the outbox for a running Plink
   * process to relay. It never relays, not even others' rows, so that a key prefix mistaken here cannot strand
   * anyone's jobs where no worker reads. Call before the application starts.
   */
  leaveRelayToOthers(): void {
    this.relays = false;
  }

  private kick(): void {
    if (this.stopped || !this.relays) return;
    if (this.running || this.waiting) {
      this.again = true;
      return;
    }
    let full = false;
    this.running = this.relayOnce()
      .catch((err) => {
        warnThrottled('outbox', err, 'outbox relay pass failed');
        return 0;
      })
      .then((relayed) => {
        full = relayed >= BATCH;
        return relayed;
      })
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (full) {
          this.again = false;
          this.kick();
        } else if (this.again) {
          this.again = false;
          this.waiting = setTimeout(() => {
            this.waiting = undefined;
            this.kick();
          }, RELAY_WINDOW_MS);
        }
      });
  }

  onApplicationBootstrap() {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    // Redis is back: rows pushed back while it was away are due now, not after their back-off.
    this.jobs.onReady(() => void this.resumeAfterOutage());
    this.kick();
  }

  private async resumeAfterOutage(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.orm.em
        .getConnection()
        .execute('update platform.outbox set available_at = now() where relay_attempts > 0 and available_at > now()');
    } catch (err) {
      warnThrottled('outbox', err, 'outbox: could not reschedule postponed jobs');
    }
    this.kick();
  }

  /** Before the queues and the database close (their hooks run after this one), finish the current pass. */
  async beforeApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.waiting) clearTimeout(this.waiting);
    await this.running;
  }

  /** How many jobs recorded under this correlation id still wait to be relayed. */
  async countWaiting(correlationId: string): Promise<number> {
    const rows: { n: string }[] = await this.orm.em.fork().execute('select count(*) as n from platform.outbox where correlation_id = ?', [correlationId]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Relays what is due; returns how many jobs reached BullMQ. One transaction on the ORM's own `pg` pool:
   * take up to {@link BATCH} due rows, oldest due first, and delete them in the same statement (SKIP LOCKED:
   * other relaying processes take others), add them to their queues (the row id is the BullMQ job id, so a
   * retried add is not a second job), then commit. When the queue does not answer, the transaction is rolled
   * back (the rows are back, untouched) and they are pushed back with a growing delay.
   *
   * Cheap on purpose, since under load it runs after nearly every lead batch: the walk follows the
   * `available_at` index and stops at the batch size (ordering by another column made every pass read and
   * sort the whole table, dead rows included), and taking and deleting a row is one write, not a row lock
   * and then a delete. Arrays as parameters and prepared statements.
   */
  async relayOnce(): Promise<number> {
    // While Redis is away nothing is taken (an add would fail at once): the rows wait untouched, and the
    // producers' reconnect starts a pass (see onApplicationBootstrap). The 1 s poll keeps checking.
    if (!this.jobs.ready()) {
      warnThrottled('outbox', 'Redis unreachable', 'outbox: Redis unreachable; jobs wait in the outbox');
      return 0;
    }
    const pool = await this.nativePool();
    const client = await pool.connect();
    let broken: Error | undefined;
    const taken: OutboxRow[] = [];
    let failure: Error | undefined;
    try {
      await client.query('begin');
      const { rows } = await client.query<OutboxRow>({
        name: 'outbox_take',
        text: `delete from platform.outbox where id in (
            select id from platform.outbox where available_at <= now() order by available_at limit $1 for update skip locked)
          returning id, queue, job_name, payload, correlation_id, created_at, available_at, relay_attempts`,
        values: [BATCH],
      });
      taken.push(...rows);
      if (rows.length === 0) {
        await client.query('commit');
        return 0;
      }
      // Oldest first into the queues (a DELETE … RETURNING gives its rows in no set order).
      rows.sort((a, b) => +a.available_at - +b.available_at || +a.created_at - +b.created_at);
      try {
        await withTimeout(
          this.jobs.addMany(relayedJobs(rows)),
          ADD_TIMEOUT_MS,
        );
      } catch (err) {
        failure = err as Error;
      }
      await client.query(failure ? 'rollback' : 'commit');
    } catch (err) {
      broken = err as Error;
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release(broken);
    }
    if (!failure) return taken.length;
    await this.postpone(pool, taken, failure);
    return 0;
  }

  /** Rows whose jobs the queue did not take (Redis most likely away) wait longer each time they fail. */
  private async postpone(pool: NativePgPool, rows: OutboxRow[], err: Error): Promise<void> {
    const attempts = Math.max(...rows.map((r) => r.relay_attempts)) + 1;
    const delaySeconds = Math.min(30, 2 ** Math.min(attempts, 5));
    await pool.query(
      `update platform.outbox set relay_attempts = relay_attempts + 1, last_error = $1,
         available_at = now() + make_interval(secs => $2) where id = any($3::uuid[])`,
      [String(err.message).slice(0, 500), delaySeconds, rows.map((r) => r.id)],
    );
    warnThrottled('outbox', err, 'outbox: queue unreachable, will retry', { jobs: rows.length, attempts });
  }
}

/** The columns of one job in the JSON of {@link Outbox.jobsForNewRow}. */
const JOB_RECORD = 'queue text, job_name text, payload jsonb, id_field text, time_field text, correlation_id text';

/**
 * The CTE that records the jobs of the rows of `rows` (see {@link StatementWithJobs}): one outbox row per
 * job in each row's `jobsColumn`, with the row's `idColumn` written into the job's `idField` (and the
 * statement's time into its `timeField`, when it has one).
 */
function recordJobsSql(rows: string, idColumn: string, jobsColumn: string): string {
  for (const name of [rows, idColumn, jobsColumn]) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('Unsafe SQL identifier');
  return `outbox_jobs as (
      insert into platform.outbox (id, queue, job_name, payload, correlation_id)
      select gen_random_uuid(), j.queue, j.job_name,
             jsonb_set(case when j.time_field is null then j.payload else jsonb_set(j.payload, array[j.time_field], to_jsonb(now())) end,
                       array[j.id_field], to_jsonb(s.${idColumn})),
             j.correlation_id
        from ${rows} s cross join lateral jsonb_to_recordset(s.${jobsColumn}) as j(${JOB_RECORD})
        where s.${jobsColumn} is not null
    )`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
