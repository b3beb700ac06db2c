import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { QueueName } from '@plink/contracts';
import { JobQueue } from '@plink/queue';
import { registerMetricsSource } from '@plink/observability';

/** Lets /metrics read this process's queues (job counts by state) and the outbox (rows and oldest age). */
@Injectable()
export class MetricsSources implements OnModuleInit, OnApplicationShutdown {
  private unregister?: () => void;

  constructor(
    private readonly jobs: JobQueue,
    private readonly em: EntityManager,
  ) {}

  onModuleInit() {
    this.unregister = registerMetricsSource({
      queueCounts: async () => {
        if (!this.jobs.ready()) return {};
        const entries = await Promise.all(
          Object.values(QueueName).map(
            async (name) => [name, await this.jobs.queue(name).getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed')] as const,
          ),
        );
        return Object.fromEntries(entries);
      },
      outbox: async () => {
        const [row] = await this.em
          .fork()
          .getConnection()
          .execute<{ rows: number; oldest: number }[]>(
            'select count(*)::int as rows, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from platform.outbox',
          );
        return { rows: row.rows, oldestSeconds: row.oldest };
      },
    });
  }

  onApplicationShutdown() {
    this.unregister?.();
  }
}
