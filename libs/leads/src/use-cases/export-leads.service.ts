import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { exportFilename, leadsCsvStream } from '../export/leads-csv';
import { LeadsRepository, type LeadRow } from '../leads/leads.repository';
import { OwnedPages } from './owned-pages';

/** Rows fetched per query: memory stays flat however many leads a page has. */
export const EXPORT_BATCH = 1_000;

/** GET /api/pages/{id}/export: the page's leads as a streamed CSV file (owner only). */
@Injectable()
export class ExportLeadsService {
  constructor(
    private readonly em: EntityManager,
    private readonly owned: OwnedPages,
    private readonly leads: LeadsRepository,
  ) {}

  async execute(pageId: string, userId: number): Promise<{ filename: string; stream: Readable }> {
    const page = await this.owned.find(pageId, userId);
    // The stream outlives the request's ORM context: it reads through a context of its own.
    const em = this.em.fork();
    const leads = this.leads;
    const lastId = await leads.lastId(page.id, em);
    async function* batches(): AsyncGenerator<LeadRow[]> {
      let after = 0;
      for (;;) {
        const batch = await leads.batchAfter(page.id, after, lastId, EXPORT_BATCH, em);
        if (batch.length === 0) return;
        yield batch;
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1].id;
      }
    }
    return { filename: exportFilename(page.title, page.slug), stream: leadsCsvStream(batches(), page.slug) };
  }
}
