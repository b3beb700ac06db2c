import { Global, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { QueueName } from '@plink/contracts';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { JobHandlerRegistry } from './contract-worker';
import { JobQueue } from './job-queue';
import { Outbox } from './outbox.service';

/**
 * BullMQ for a Plink process: a producer for every queue, the outbox and its relay, and the
 * handler registry that the processors of the services running here register with.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.redisUrl },
        prefix: `${config.redisPrefix}bull`,
      }),
    }),
    BullModule.registerQueueAsync(
      ...Object.values(QueueName).map((name) => ({
        name,
        inject: [APP_CONFIG],
        useFactory: (config: AppConfig) => ({
          // Producers fail fast while Redis is away (the outbox retries them) instead of queueing offline.
          connection: { url: config.redisUrl, enableOfflineQueue: false },
          prefix: `${config.redisPrefix}bull`,
        }),
      })),
    ),
  ],
  providers: [JobQueue, Outbox, JobHandlerRegistry],
  exports: [JobQueue, Outbox, JobHandlerRegistry, BullModule],
})
export class QueueModule {}
