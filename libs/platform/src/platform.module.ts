import { DynamicModule, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ConfigModule, type AppConfig } from '@plink/config';
import { DatabaseModule, type ServiceSchema } from '@plink/data';
import { DatabaseHealthIndicator, QueuesHealthIndicator, RedisHealthIndicator } from './health/health-indicators';
import { HealthService } from './health/health.service';
import { EarlyAnswers } from '@plink/http';
import { MailModule } from '@plink/mail';
import { MetricsSources } from './health/metrics-sources';
import { QueueModule } from '@plink/queue';
import { RateLimiter, RedisModule } from '@plink/redis';
import { StorageModule } from '@plink/storage';

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
