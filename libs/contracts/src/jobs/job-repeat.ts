/**
 * A job that runs by itself on a schedule, declared on its contract (`JOBS[name].repeat`). Every worker process
 * that serves the job's queue keeps one BullMQ job scheduler of it, under the job's name: one schedule however
 * many replicas start, and starting again changes nothing. Each run carries the payload `{ v: 1 }`.
 */
export type JobRepeat = (
  | {
      /** Every so many milliseconds. */
      every: number;
    }
  | {
      /** A cron pattern, in UTC (so replicas in other time zones neither run it twice nor shift it). */
      pattern: string;
    }
) & {
  /** Tries of one run (default: its queue's). */
  attempts?: number;
  /** The wait between tries (default: its queue's backoff). */
  backoff?: { type: 'fixed' | 'exponential'; delay: number };
  /** Completed runs kept for inspection (default: its queue's). */
  keepCompleted?: number;
  /** Failed runs kept for inspection (default: its queue's). */
  keepFailed?: number;
};
