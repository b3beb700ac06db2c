import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { accountExportKeys, type JobPayload } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { getLogger } from '@plink/observability';
import { Outbox } from '@plink/queue';
import { Storage } from '@plink/storage';
import { LeadsRepository } from '../model/leads.repository';

/**
 * An account export's leads step ('leads.account-export'): each page the read model knows as the user's gets its
 * leads.csv (the page export's own CSV, streamed from PostgreSQL's COPY) streamed into the store, then the pages
 * service's step is recorded. Memory stays flat whatever the number of leads: rows go from the database socket
 * to the store's file or upload as they come. A retry writes the same files again.
 */
@Injectable()
export class AccountExportLeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly leads: LeadsRepository,
    private readonly storage: Storage,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(job: JobPayload<'leads.account-export'>): Promise<void> {
    const pages = await this.em
      .fork()
      .execute<{ page_id: number; slug: string }[]>('select page_id, slug from leads.page_facts where owner_id = ? and not deleted order by page_id', [job.userId]);
    for (const page of pages) {
      const csv = await this.leads.exportCsv(Number(page.page_id), page.slug, { signupIp: this.config.leadEvidence === 'full' });
      await this.storage.putStream(accountExportKeys.leads(job.userId, job.exportId, Number(page.page_id)), csv, 'text/csv; charset=utf-8');
    }
    const em = this.em.fork();
    this.outbox.record(em, 'pages.account-export', { v: 1, exportId: job.exportId, userId: job.userId, account: job.account });
    await em.flush();
    getLogger().info({ userId: job.userId, exportId: job.exportId, pages: pages.length }, 'account export: leads written');
  }
}
