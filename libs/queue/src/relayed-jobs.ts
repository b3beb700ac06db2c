import { RELAYED_TOGETHER, type JobEnvelope, type JobName, type MessageName, type QueueName, type RelayedGroup } from '@plink/contracts';

/** An outbox row as the relay takes it. */
export interface RelayedRow {
  id: string;
  /** The queue the row's message goes to (an event has one row per subscriber's queue). */
  queue: string;
  job_name: string;
  payload: Record<string, unknown>;
  correlation_id: string;
  created_at: Date;
}

/** A job as the relay hands it to the queue. */
export interface RelayedJob {
  name: MessageName;
  queue: QueueName;
  jobId: string;
  envelope: JobEnvelope;
}

/**
 * The queue jobs of a relay pass's rows, in their order: one per row, its id the row's (a retried add is not a
 * second job), except for the jobs relayed together ({@link RELAYED_TOGETHER}), whose rows go in groups of at
 * most `max` named `as`, each group's id and metadata those of its first row, each member with its own
 * correlation id.
 */
export function relayedJobs(rows: readonly RelayedRow[]): RelayedJob[] {
  const jobs: RelayedJob[] = [];
  const open = new Map<string, RelayedGroup>();
  for (const row of rows) {
    const meta = { correlationId: row.correlation_id, recordedAt: new Date(row.created_at).toISOString() };
    const together = RELAYED_TOGETHER[row.job_name as JobName];
    if (!together) {
      jobs.push({ name: row.job_name as MessageName, queue: row.queue as QueueName, jobId: row.id, envelope: { payload: row.payload as JobEnvelope['payload'], meta } });
      continue;
    }
    let group = open.get(row.job_name);
    if (!group || group.jobs.length >= together.max) {
      group = { v: 1, jobs: [] };
      open.set(row.job_name, group);
      jobs.push({ name: together.as, queue: row.queue as QueueName, jobId: row.id, envelope: { payload: group as unknown as JobEnvelope['payload'], meta } });
    }
    group.jobs.push({ payload: row.payload, correlationId: row.correlation_id });
  }
  return jobs;
}

