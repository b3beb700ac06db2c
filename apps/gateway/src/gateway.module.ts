import { type DynamicModule, Module } from '@nestjs/common';
import { BILLING_SCHEMA } from '@plink/billing';
import { IDENTITY_SCHEMA, IdentityHttpModule } from '@plink/identity';
import { LEADS_SCHEMA } from '@plink/leads';
import { PAGES_SCHEMA } from '@plink/pages';
import { PlatformModule, type AppConfig } from '@plink/platform';
import { HealthController } from './health.controller';
import { WORKER_MODULES, selectWorkers } from './workers';

/** The gateway: every service's HTTP module, plus the processors PLINK_WORKERS asks for. */
@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig): DynamicModule {
    const workers = selectWorkers(config.workers).map((name) => WORKER_MODULES[name]);
    return {
      module: GatewayModule,
      imports: [
        PlatformModule.forRoot({ config, schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA, LEADS_SCHEMA, BILLING_SCHEMA] }),
        IdentityHttpModule,
        ...workers,
      ],
      controllers: [HealthController],
    };
  }
}
