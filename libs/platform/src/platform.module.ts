import { DynamicModule, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.schema';
import { DatabaseModule } from './database/database.module';
import type { ServiceSchema } from './database/service-schema';
import { DatabaseHealthIndicator, QueuesHealthIndicator, RedisHealthIndicator } from './health/health-indicators';
import { HealthService } from './health/health.service';
import { EarlyAnswers } from './http/early-answers';
import { MailModule } from './mail/mail.module';
import { MetricsSources } from './metrics/metrics-sources';
import { QueueModule } from './queue/queue.module';
import { RateLimiter } from './rate-limit/rate-limiter';
import { RedisModule } from './redis/redis.module';
import { StorageModule } from './storage/storage.module';

/**
 * Everything a Plink process stands on: validated config, the database (with the migrations of
 * the services it runs), Redis, BullMQ and the outbox, rate limits, the mail and storage ports,
 * health checks and the sources of /metrics.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: { config: AppConfig; schemas: ServiceSchema[] }): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ConfigModule.forRoot(options.config),
        DatabaseModule.forRoot(options.schemas),
        RedisModule,
        QueueModule,
        MailModule,
        StorageModule,
        // Failed checks are not logged here: the clients' own connection errors already are, at a bounded rate.
        TerminusModule.forRoot({ logger: false }),
      ],
      providers: [EarlyAnswers, RateLimiter, HealthService, DatabaseHealthIndicator, RedisHealthIndicator, QueuesHealthIndicator, MetricsSources],
      exports: [ConfigModule, DatabaseModule, RedisModule, QueueModule, MailModule, StorageModule, EarlyAnswers, RateLimiter, HealthService],
    };
  }
}
