import { Injectable } from '@nestjs/common';
import { getLogger } from '@plink/observability';
import { LeadsRepository } from '../model/leads.repository';
import { DELETE_BATCH } from './delete-page-leads.service';

/**
 * Removes the contact data of a page paused after its owner's downgrade, 30 days on
 * ('leads.delete-contacts-for-page'): every lead (the visitors' e-mail addresses) goes; the page's
 * conversion count stays, so its statistics do not change. Safe to repeat.
 */
@Injectable()
export class DeletePageContactsService {
  constructor(private readonly leads: LeadsRepository) {}

  async execute(pageId: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const n = await this.leads.deleteBatch(pageId, DELETE_BATCH);
      deleted += n;
      if (n < DELETE_BATCH) break;
    }
    getLogger().info({ pageId, deleted }, 'leads of a paused page removed (its counts stay)');
    return deleted;
  }
}
