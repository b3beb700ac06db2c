import { type DynamicModule, Module } from '@nestjs/common';
import { BILLING_SCHEMA, BillingHttpModule } from '@plink/billing';
import { IDENTITY_SCHEMA, IdentityHttpModule, SESSION_COOKIE } from '@plink/identity';
import { LEADS_SCHEMA, LeadsHttpModule, LeadsReadModule } from '@plink/leads';
import { NOTIFICATIONS_SCHEMA, WebhooksHttpModule } from '@plink/notifications';
import { PAGES_SCHEMA, PagesHttpModule } from '@plink/pages';
import { PlatformModule, SpaShell, type AppConfig } from '@plink/platform';
import { HealthController } from './health.controller';
import { FileSpaShell, findWebDist } from './spa';
import { WORKER_MODULES, selectWorkers } from './workers';

/**
 * The gateway: every service's HTTP module, plus the processors PLINK_WORKERS asks for.
 * It is global and re-exports what services give each other through ports: the SPA shell, and
 * LeadsReadModule's ConversionsReader (pages shows conversions without depending on leads).
 */
@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig): DynamicModule {
    const workers = selectWorkers(config.workers).map((name) => WORKER_MODULES[name]);
    return {
      module: GatewayModule,
      imports: [
        PlatformModule.forRoot({ config, schemas: [IDENTITY_SCHEMA, PAGES_SCHEMA, LEADS_SCHEMA, BILLING_SCHEMA, NOTIFICATIONS_SCHEMA] }),
        LeadsReadModule,
        IdentityHttpModule,
        PagesHttpModule,
        LeadsHttpModule,
        BillingHttpModule,
        WebhooksHttpModule,
        ...workers,
      ],
      controllers: [HealthController],
      providers: [{ provide: SpaShell, useValue: new FileSpaShell(findWebDist(config.webDistDir), config.publicOrigin, SESSION_COOKIE) }],
      exports: [SpaShell, LeadsReadModule],
      global: true,
    };
  }
}
