import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { JOBS, type JobEnvelope, type JobName, type JobPayload } from '@plink/contracts';
import { currentCorrelationId, getLogger } from '../logging/logger';
import { JobQueue } from './job-queue';
import { OutboxMessage } from './outbox.entity';

const POLL_MS = 1_000;
const BATCH = 200;
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
   * Asks for a relay pass now (after a commit), instead of at the next poll. Kicks that come while a pass
   * runs share the one pass after it, so under load each pass moves what accumulated meanwhile (measured:
   * a few hundred jobs per pass at thousands of leads per second; a timer window on top changed nothing).
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.relayOnce()
      .catch((err) => {
        getLogger().warn({ err }, 'outbox relay pass failed');
        return 0;
      })
      .then((relayed) => {
        // A full batch means more may be waiting (a backlog after a burst or an outage): go on at once
        // rather than one batch per poll.
        if (relayed >= BATCH) this.again = true;
        return relayed;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  onApplicationBootstrap() {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Before the queues and the database close (their hooks run after this one), finish the current pass. */
  async beforeApplicationShutdown() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * Relays what is due; returns how many jobs reached BullMQ. One transaction on the ORM's own `pg` pool:
   * claim up to {@link BATCH} rows (SKIP LOCKED: other relaying processes take others), add them to their
   * queues (the row id is the BullMQ job id, so a retried add is not a second job), then delete them — or,
   * when the queue does not answer, push them back with a growing delay. Arrays as parameters and prepared
   * statements: a pass under load costs the gateway little besides BullMQ's own work.
   */
  async relayOnce(): Promise<number> {
    const pool = await this.orm.em.getConnection().getNativeClient();
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      const { rows } = await client.query<OutboxRow>({
        name: 'outbox_claim',
        text: `select id, job_name, payload, correlation_id, created_at, relay_attempts from platform.outbox
          where available_at <= now() order by created_at limit $1 for update skip locked`,
        values: [BATCH],
      });
      let relayed = 0;
      if (rows.length > 0) {
        const ids = rows.map((row) => row.id);
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
          await client.query({ name: 'outbox_done', text: 'delete from platform.outbox where id = any($1::uuid[])', values: [ids] });
          relayed = rows.length;
        } catch (err) {
          // Redis is most likely away: every claimed row waits and is tried again later.
          const attempts = Math.max(...rows.map((r) => r.relay_attempts)) + 1;
          const delaySeconds = Math.min(30, 2 ** Math.min(attempts, 5));
          await client.query(
            `update platform.outbox set relay_attempts = relay_attempts + 1, last_error = $1,
               available_at = now() + make_interval(secs => $2) where id = any($3::uuid[])`,
            [String((err as Error).message).slice(0, 500), delaySeconds, ids],
          );
          getLogger().warn({ jobs: rows.length, attempts, err }, 'outbox: queue unreachable, will retry');
        }
      }
      await client.query('commit');
      return relayed;
    } catch (err) {
      broken = err as Error;
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release(broken);
    }
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
