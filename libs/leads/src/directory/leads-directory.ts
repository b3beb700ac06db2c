import { Injectable } from '@nestjs/common';
import { LeadsRepository } from '../leads/leads.repository';

/** A lead as the notifications service needs it to deliver the page's file. */
export interface LeadForDelivery {
  id: number;
  pageId: number;
  email: string;
}

/** A lead as the webhook's `lead.created` event tells it. */
export interface LeadForWebhook extends LeadForDelivery {
  createdAt: Date;
  consentAt: Date | null;
}

/** The leads service's read API for other services (never its entities). */
@Injectable()
export class LeadsDirectory {
  constructor(private readonly leads: LeadsRepository) {}

  /** Conversions per page (0 for a page without leads). */
  conversionsFor(pageIds: number[]): Promise<Map<number, number>> {
    return this.leads.conversionsFor(pageIds);
  }

  findForDelivery(leadId: number): Promise<LeadForDelivery | null> {
    return this.leads.findById(leadId);
  }

  findForWebhook(leadId: number): Promise<LeadForWebhook | null> {
    return this.leads.findWithDates(leadId);
  }
}
