import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { LeadMessages, deleteLeadsSchema, leadsDeletedMessage, type DeleteLeadsResponse } from '@plink/contracts';
import { getLogger } from '@plink/observability';
import { LeadsRepository } from '../model/leads.repository';
import { OwnedPages } from './owned-pages';

/**
 * A creator deletes leads of their own page (the stats screen's lead list): one, or a selection of up to
 * 1,000. The leads are gone from the list, the export and the counts at once, and their webhook deliveries
 * not yet made are dropped (see LeadsRepository.deleteLeads). Another user's page is a 404, as for stats.
 */
@Injectable()
export class DeleteLeadsService {
  constructor(
    private readonly pages: OwnedPages,
    private readonly leads: LeadsRepository,
  ) {}

  /** POST /api/pages/{id}/leads/delete `{ ids }`: a body that is not a list of 1 to 1000 ids is a 400, and nothing changes. */
  async deleteMany(pageId: string, userId: number, body: unknown): Promise<DeleteLeadsResponse> {
    const page = await this.pages.find(pageId, userId);
    const parsed = deleteLeadsSchema.safeParse(body);
    if (!parsed.success) throw new BadRequestException({ message: LeadMessages.invalidLeadIds });
    return this.delete(page.id, [...new Set(parsed.data.ids)]);
  }

  /** DELETE /api/pages/{id}/leads/{leadId}: a lead the page does not have is a 404. */
  async deleteOne(pageId: string, userId: number, leadId: string): Promise<DeleteLeadsResponse> {
    const page = await this.pages.find(pageId, userId);
    const id = /^[1-9]\d{0,9}$/.test(leadId) ? Number(leadId) : NaN;
    const result = id <= 2_147_483_647 ? await this.delete(page.id, [id]) : { deleted: 0, message: '' };
    if (result.deleted === 0) throw new NotFoundException({ message: LeadMessages.leadNotFound });
    return result;
  }

  private async delete(pageId: number, ids: number[]): Promise<DeleteLeadsResponse> {
    const deleted = await this.leads.deleteLeads(pageId, ids);
    getLogger().info({ pageId, asked: ids.length, deleted: deleted.length }, 'leads deleted by their creator');
    return { deleted: deleted.length, message: leadsDeletedMessage(deleted.length) };
  }
}
