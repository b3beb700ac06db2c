import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { JOBS, type JobEnvelope, type JobName, type JobPayload } from '@plink/contracts';
import type { NativePgPool } from '../database/database.module';
import { currentCorrelationId } from '../logging/logger';
import { warnThrottled } from '../logging/throttled-log';
import { JobQueue } from './job-queue';
import { OutboxMessage } from './outbox.entity';

const POLL_MS = 1_000;
/** Most jobs one pass moves (one statement, one Redis round trip per queue). */
const BATCH = 500;
/** Under load, at most one pass per window (see {@link Outbox.kick}). */
const RELAY_WINDOW_MS = 25;
const ADD_TIMEOUT_MS = 5_000;

/** A job whose `idField` is filled, in SQL, with the id of a row created by the same statement. */
export interface DeferredJob {
  name: JobName;
  payload: Record<string, unknown>;
  idField: string;
}

interface OutboxRow {
  id: string;
  job_name: string;
  payload: Record<string, unknown>;
  correlation_id: string;
  created_at: Date;
  available_at: Date;
  relay_attempts: number;
}

/**
 * The transactional outbox: `record` writes a job row with the caller's EntityManager (so it
 * commits or rolls back with the caller's change); the relay moves committed rows to BullMQ and
 * deletes them. Several processes may relay at once (rows are claimed with SKIP LOCKED).
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private again = false;
  private waiting?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
  ) {}

  /** Records a job in the caller's unit of work; it is relayed once that work is committed. */
  record<N extends JobName>(em: EntityManager, name: N, payload: JobPayload<N>): void {
    const parsed = JOBS[name].schema.parse(payload);
    em.persist(
      em.create(OutboxMessage, {
        id: randomUUID(),
        queue: JOBS[name].queue,
        jobName: name,
        payload: parsed as Record<string, unknown>,
        correlationId: currentCorrelationId() ?? randomUUID(),
      }),
    );
  }

  /**
   * Outbox rows as a data-modifying SQL statement, for jobs whose payload needs an id that the caller's
   * own statement creates: one job per row of `source` (a CTE of that statement) and per entry of `jobs`,
   * with the row's `idColumn` written into the payload's `idField`. Put it in a CTE of the caller's
   * statement (`with created as (...), jobs as (<sql>) select ...`): the change and its jobs then commit
   * or fail together in one round trip. Payloads are checked against their contract here.
   */
  rowsFromStatement(source: string, idColumn: string, jobs: DeferredJob[]): { sql: string; params: unknown[] } {
    safeIdentifiers(source, idColumn);
    return {
      sql: `insert into platform.outbox (id, queue, job_name, payload, correlation_id)
        select gen_random_uuid(), j.queue, j.job_name, jsonb_set(j.payload, array[j.id_field], to_jsonb(s.${idColumn})), j.correlation_id
        from ${source} s cross join jsonb_to_recordset(?::jsonb) as j(${JOB_RECORD})`,
      params: [this.deferredJobs(jobs) ?? '[]'],
    };
  }

  /**
   * One row's jobs, checked against their contracts and tagged with the current correlation id, as the
   * JSON text that {@link rowsFromJobsColumn} reads (null when there are none). For statements that
   * write many rows whose jobs differ (rows from several requests written together).
   */
  deferredJobs(jobs: DeferredJob[]): string | null {
    if (jobs.length === 0) return null;
    const correlationId = currentCorrelationId() ?? randomUUID();
    return JSON.stringify(
      jobs.map((job) => {
        const { [job.idField]: _placeholder, ...payload } = JOBS[job.name].schema.parse({ ...job.payload, [job.idField]: 1 }) as Record<string, unknown>;
        return { queue: JOBS[job.name].queue, job_name: job.name, payload, id_field: job.idField, correlation_id: correlationId };
      }),
    );
  }

  /**
   * Like {@link rowsFromStatement}, but each row of `source` carries its own jobs: `jobsColumn` holds
   * that row's {@link deferredJobs} JSON (jsonb, or null for none). No parameters of its own.
   */
  rowsFromJobsColumn(source: string, idColumn: string, jobsColumn: string): string {
    safeIdentifiers(source, idColumn, jobsColumn);
    return `insert into platform.outbox (id, queue, job_name, payload, correlation_id)
        select gen_random_uuid(), j.queue, j.job_name, jsonb_set(j.payload, array[j.id_field], to_jsonb(s.${idColumn})), j.correlation_id
        from ${source} s cross join lateral jsonb_to_recordset(s.${jobsColumn}) as j(${JOB_RECORD})
        where s.${jobsColumn} is not null`;
  }

  /**
   * Asks for a relay pass soon (after a commit), instead of at the next poll. A kick while no pass runs or
   * waits starts one at once, so a lone job leaves without delay; kicks that come while a pass runs share
   * one pass, {@link RELAY_WINDOW_MS} after it ends (more kicks in that wait join it). Under load a pass
   * then moves a window's worth of jobs (a few hundred at thousands of leads a second) rather than the
   * couple of lead batches committed during the previous pass: measured at 50 connections (npm run bench,
   * alternating runs), a 25 ms window took the submissions from 0.62–0.80× to 0.84–0.95× of the raw insert,
   * since each pass has a fixed cost in PostgreSQL, Redis and the gateway. A full pass means a backlog (a
   * burst, an outage just over): the next one starts at once.
   */
  kick(): void {
    if (this.stopped) return;
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
    const pool = await this.orm.em.getConnection().getNativeClient();
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
          returning id, job_name, payload, correlation_id, created_at, available_at, relay_attempts`,
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
          this.jobs.addMany(
            rows.map((row) => ({
              name: row.job_name as JobName,
              jobId: row.id,
              envelope: {
                payload: row.payload as JobEnvelope['payload'],
                meta: { correlationId: row.correlation_id, recordedAt: new Date(row.created_at).toISOString() },
              },
            })),
          ),
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

/** The columns of one job in the JSON of {@link Outbox.deferredJobs}. */
const JOB_RECORD = 'queue text, job_name text, payload jsonb, id_field text, correlation_id text';

function safeIdentifiers(...names: string[]): void {
  for (const name of names) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('Unsafe SQL identifier');
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
