import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { BillingWorkerModule } from '@plink/billing';
import { IdentityWorkerModule } from '@plink/identity';
import { LeadsWorkerModule } from '@plink/leads';
import { NotificationsWorkerModule } from '@plink/notifications';
import { PagesUploadUsageModule, PagesWorkerModule } from '@plink/pages';
import { UploadsWorkerModule } from '@plink/uploads';

/** The pages worker as `apps/pages` runs it: the pages queue, and the uploads queue told by pages which uploads its pages show. */
@Module({ imports: [PagesWorkerModule, UploadsWorkerModule.forUsage(PagesUploadUsageModule)] })
class PagesAndUploadsWorkers {}

export const WORKER_MODULES: Record<string, Type<unknown> | DynamicModule> = {
  identity: IdentityWorkerModule,
  pages: PagesAndUploadsWorkers,
  leads: LeadsWorkerModule,
  billing: BillingWorkerModule,
  notifications: NotificationsWorkerModule,
};

/** PLINK_WORKERS: "none", "all", or a comma list of services whose processors run in this process. */
export function selectWorkers(setting: string): string[] {
  const value = setting.trim().toLowerCase();
  if (value === '' || value === 'none') return [];
  if (value === 'all') return Object.keys(WORKER_MODULES);
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(n in WORKER_MODULES));
  if (unknown.length > 0) {
    throw new Error(`PLINK_WORKERS names unknown services: ${unknown.join(', ')} (known: ${Object.keys(WORKER_MODULES).join(', ')}, all, none)`);
  }
  return [...new Set(names)];
}
