import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { exportFilename } from '../export/leads-csv';
import { LeadsRepository } from '../model/leads.repository';
import { OwnedPages } from './owned-pages';

/**
 * GET /api/pages/{id}/export: the page's leads as a CSV file (owner only), streamed from PostgreSQL's
 * `COPY` with flat memory: one snapshot, formulas neutralised and times in ISO-8601 UTC by the statement. The
 * visitors' IP addresses (`signup_ip`) are a column only where the install keeps them (LEAD_EVIDENCE=full).
 */
@Injectable()
export class ExportLeadsService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly leads: LeadsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(pageId: string, userId: number): Promise<{ filename: string; stream: Readable }> {
    const page = await this.owned.find(pageId, userId);
    return { filename: exportFilename(page.title, page.slug), stream: await this.leads.exportCsv(page.id, page.slug, { signupIp: this.config.leadEvidence === 'full' }) };
  }
}
