import { Injectable, NotFoundException } from '@nestjs/common';
import { LeadMessages, type ConsentRecordDto } from '@plink/contracts';
import { ConsentRecords } from '../model/consent-records';
import { OwnedPages } from './owned-pages';

/**
 * GET /api/pages/{id}/leads/{leadId}/consent: how one lead was given (the consent text shown, its version,
 * the privacy link, the times and, with full evidence, the visitor's IP address and user agent), for the page's
 * owner to show whoever asks them to prove it. Another creator's page and a missing page answer the same 404;
 * a lead the page does not have, 'Lead not found'.
 */
@Injectable()
export class ConsentRecordService {
  constructor(
    private readonly owned: OwnedPages,
    private readonly records: ConsentRecords,
  ) {}

  async execute(pageId: string, leadId: string, userId: number): Promise<ConsentRecordDto> {
    const page = await this.owned.find(pageId, userId);
    const id = /^[1-9]\d{0,9}$/.test(leadId) ? Number(leadId) : NaN;
    const record = id <= 2_147_483_647 ? await this.records.find(page.id, id) : null;
    if (!record) throw new NotFoundException({ message: LeadMessages.leadNotFound });
    return record;
  }
}
