import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/observability';
import { LeadsRepository } from '../model/leads.repository';

/** Rows deleted per statement: short transactions, however many leads a page has. */
export const DELETE_BATCH = 5_000;

/** Removes every lead and the counter of a deleted page ('leads.delete-for-page'). Safe to repeat. */
@Injectable()
export class DeletePageLeadsService {
  constructor(private readonly leads: LeadsRepository) {}

  async execute(pageId: number): Promise<void> {
    let deleted = 0;
    for (;;) {
      const n = await this.leads.deleteBatch(pageId, DELETE_BATCH);
      deleted += n;
      if (n < DELETE_BATCH) break;
    }
    await this.leads.deleteCounter(pageId);
    getLogger().info({ pageId, deleted }, 'leads of a deleted page removed');
  }
}
