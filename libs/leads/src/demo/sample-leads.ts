import { Injectable } from '@nestjs/common';
import { LeadsRepository } from '../model/leads.repository';

/**
 * Who left an address on the demo creator's sample page, and when (days before the seed, hour of the day in
 * UTC): spread over the last nine days, some days busier than others, so its stats show leads of several dates.
 */
const SAMPLE_LEADS: ReadonlyArray<readonly [address: string, daysAgo: number, hour: number]> = [
  ['olivia.bennett@example.com', 9, 8],
  ['liam.carter@example.com', 8, 14],
  ['sofia.moreau@example.org', 8, 19],
  ['noah.fischer@example.com', 7, 10],
  ['emma.nakamura@example.net', 6, 12],
  ['lucas.oliveira@example.com', 5, 9],
  ['mia.kowalski@example.com', 5, 16],
  ['ethan.brooks@example.org', 5, 21],
  ['ava.lindqvist@example.com', 3, 11],
  ['leo.martin@example.net', 2, 15],
  ['chloe.dubois@example.com', 1, 9],
  ['james.okafor@example.com', 1, 18],
  ['isla.romero@example.com', 0, 0],
];

/** The leads service's part of the demo seed: the sample page's leads, with their dates. */
@Injectable()
export class LeadsDemo {
  constructor(private readonly leads: LeadsRepository) {}

  /**
   * Stores the sample leads of the demo creator's page (each with the privacy consent the page asks for), dated
   * over the days before `now`, and counts them as its conversions. Answers how many it stored.
   */
  addSampleLeads(pageId: number, now = new Date()): Promise<number> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const leads = SAMPLE_LEADS.map(([email, daysAgo, hour]) => {
      // Never later than now: the newest of today's is the seed's own minute.
      const createdAt = new Date(Math.min(today - daysAgo * 86_400_000 + hour * 3_600_000, now.getTime()));
      return { email, createdAt, consentAt: createdAt };
    });
    // The Free plan as the leads service knows an owner billing has said nothing of (plan version 0).
    return this.leads.insertDated(pageId, leads, 0);
  }
}

/** How many leads the sample page gets. */
export const SAMPLE_LEAD_COUNT = SAMPLE_LEADS.length;
