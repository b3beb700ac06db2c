import { type DynamicModule, Module } from '@nestjs/common';
import { BILLING_SCHEMA, BillingHttpModule } from '@plink/billing';
import { IDENTITY_SCHEMA, IdentityHttpModule, IdentitySessionsModule, SESSION_COOKIE } from '@plink/identity';
import { LEADS_SCHEMA, LeadsHttpModule, LeadsReadModule } from '@plink/leads';
import { NOTIFICATIONS_SCHEMA, WebhooksHttpModule } from '@plink/notifications';
import { PAGES_SCHEMA, PagesHttpModule, PagesReadModule } from '@plink/pages';
import { PlatformModule } from '@plink/platform';
import { SpaShell } from '@plink/http';
import type { AppConfig } from '@plink/config';
import { UploadsHttpModule } from '@plink/uploads';
import { DemoCreatorModule, demoSeedOn } from './demo-creator';
import { HealthController } from './health.controller';
import { SERVICE_PORTS, SERVICE_PORT_TOKENS } from './service-ports';
import { FileSpaShell, findWebDist } from './spa';
import { WORKER_MODULES, selectWorkers } from './workers';

/**
 * The gateway: every service's HTTP module, plus the processors PLINK_WORKERS asks for.
 * It is global and re-exports what services give each other through ports: the SPA shell, and the ports
 * bound in service-ports.ts (each service reads another's data only through these). With PLINK_DEMO_SEED it
 * also makes the demo creator of an empty development database (demo-creator.ts).
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
        PagesReadModule,
        // Who is signed in, for every service's SignedInGuard (identity answers the platform's port).
        IdentitySessionsModule,
        IdentityHttpModule,
        PagesHttpModule,
        UploadsHttpModule,
        LeadsHttpModule,
        BillingHttpModule,
        WebhooksHttpModule,
        ...workers,
        ...(demoSeedOn(config) ? [DemoCreatorModule] : []),
      ],
      controllers: [HealthController],
      providers: [{ provide: SpaShell, useValue: new FileSpaShell(findWebDist(config.webDistDir), config.publicOrigin, SESSION_COOKIE) }, ...SERVICE_PORTS],
      exports: [SpaShell, LeadsReadModule, ...SERVICE_PORT_TOKENS],
      global: true,
    };
  }
}
