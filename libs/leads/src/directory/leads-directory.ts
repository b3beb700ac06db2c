import { Injectable } from '@nestjs/common';
import { LeadsRepository } from '../model/leads.repository';

/** The leads service's read API for other services (never its entities). */
@Injectable()
export class LeadsDirectory {
  constructor(private readonly leads: LeadsRepository) {}

  /** Conversions per page (0 for a page without leads). */
  conversionsFor(pageIds: number[]): Promise<Map<number, number>> {
    return this.leads.conversionsFor(pageIds);
  }

  /** Sign-ups per page waiting for their e-mail confirmation (double opt-in; pages without any may be missing). */
  pendingFor(pageIds: number[]): Promise<Map<number, number>> {
    return this.leads.pendingFor(pageIds);
  }

  /** Conversions per page that came without a counted view (the API, the plain HTML form; pages without any may be missing). */
  withoutVisitFor(pageIds: number[]): Promise<Map<number, number>> {
    return this.leads.withoutVisitFor(pageIds);
  }
}
