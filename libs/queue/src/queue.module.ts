import { Global, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { workerRedisOptions } from '@plink/redis';
import { JobHandlerRegistry } from './contract-worker';
import { JobQueue } from './job-queue';
import { Outbox } from './outbox.service';
import { RecurringJobs } from './recurring-jobs';

/**
 * BullMQ for a Plink process: a producer for every queue, the outbox and its relay, the handler
 * registry that the processors of the services running here register with, and the schedules of the
 * repeating jobs of the queues they serve.
 *
 * Workers and producers need opposite connection settings (see redis-options.ts): workers wait for
 * Redis, producers fail fast. `@Processor()` options are static, and @nestjs/bullmq builds each worker
 * with the connection of the queue registered under that name, or, when none is registered, with the
 * root options below. So the root options are the workers' (blocking, reconnecting), no queue is
 * registered with Nest, and the producers are {@link JobQueue}'s own fail-fast Queue instances.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.redisUrl, ...workerRedisOptions() },
        prefix: `${config.redisPrefix}bull`,
      }),
    }),
    // No queue: this only brings @nestjs/bullmq's explorer, which starts a worker for each @Processor.
    BullModule.registerQueue(),
  ],
  providers: [JobQueue, Outbox, JobHandlerRegistry, RecurringJobs],
  exports: [JobQueue, Outbox, JobHandlerRegistry, RecurringJobs, BullModule],
})
export class QueueModule {}
