import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ConsentRecordDto } from '@plink/contracts';

interface RecordRow {
  id: number | string;
  page_id: number | string;
  email: string;
  created_at: Date | string;
  consent_at: Date | string | null;
  consent_shown: boolean | null;
  consent_version: string | null;
  consent_text: string | null;
  privacy_url: string | null;
  signup_ip: string | null;
  signup_user_agent: string | null;
  confirmed_at: Date | string | null;
  confirm_ip: string | null;
  confirm_user_agent: string | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** Each lead's proof of consent as stored with it, read back for its creator. */
@Injectable()
export class ConsentRecords {
  constructor(private readonly em: EntityManager) {}

  /**
   * The record of lead `leadId` of page `pageId`, or null when the page has no such lead. `confirmation` is the
   * visitor's press of Confirm on a double opt-in page (its address and browser with LEAD_EVIDENCE=full), null
   * when there was none.
   */
  async find(pageId: number, leadId: number): Promise<ConsentRecordDto | null> {
    const rows: RecordRow[] = await this.em.execute(
      `select l.id, l.page_id, l.email, l.created_at, l.consent_at, l.consent_shown, l.consent_version, t.text as consent_text,
              l.privacy_url, host(l.signup_ip) as signup_ip, l.signup_user_agent,
              l.confirmed_at, l.confirm_ip, l.confirm_user_agent
         from leads.leads l left join leads.consent_texts t on t.version = l.consent_version
        where l.id = ? and l.page_id = ?`,
      [leadId, pageId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      leadId: Number(row.id),
      pageId: Number(row.page_id),
      email: row.email,
      consentShown: row.consent_shown,
      consentAt: row.consent_at === null ? null : iso(row.consent_at),
      consentText: row.consent_text,
      consentVersion: row.consent_version,
      privacyUrl: row.privacy_url,
      signup: { at: iso(row.created_at), ip: row.signup_ip, userAgent: row.signup_user_agent },
      confirmation: row.confirmed_at === null ? null : { at: iso(row.confirmed_at), ip: row.confirm_ip, userAgent: row.confirm_user_agent },
    };
  }
}
