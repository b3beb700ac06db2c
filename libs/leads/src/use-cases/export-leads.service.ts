import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { exportFilename } from '../export/leads-csv';
import { LeadsRepository } from '../model/leads.repository';
import { OwnedPages } from './owned-pages';

/**
 * GET /api/pages/{id}/export: the page's leads as a CSV file (owner only), streamed from PostgreSQL's
 * `COPY` with flat memory: one snapshot, formulas neutralised and times in ISO-8601 UTC by the statement.
 */
@Injectable()
export class ExportLeadsService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly leads: LeadsRepository,
  ) {}

  async execute(pageId: string, userId: number): Promise<{ filename: string; stream: Readable }> {
    const page = await this.owned.find(pageId, userId);
    return { filename: exportFilename(page.title, page.slug), stream: await this.leads.exportCsv(page.id, page.slug) };
  }
}
