import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { ConfirmTexts, type ConfirmLeadResponse, type LeadChannel, type LeadStatus } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { hashToken, randomToken, seal } from '@plink/crypto';
import type { VisitSource } from '@plink/http';
import { Outbox } from '@plink/queue';
import { LeadClock } from '../model/lead-clock';
import type { LeadEvidence } from '../model/lead-evidence';
import { COUNTER_SHARDS } from '../model/page-counter.entity';
import { OWNER_COLUMNS, OWNER_JOINS, sendsToHooks, sendsWebhook, toSubmissionPage, type SubmissionPage } from '../page-facts/page-facts.repository';
import { fileDeliveryOf, webhookDeliveryOf } from '../use-cases/lead-jobs';
import { EXPIRE_AFTER_MS, RESEND_AFTER_MS } from './opt-in-rules';

/** The lead a confirmation link names, as the link's page and the confirm call need it. */
interface LinkedLead {
  id: number;
  page_id: number;
  email: string;
  status: LeadStatus;
  created_at: Date;
  consent_at: Date | null;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  device: string | null;
}

/** What the link's page shows without changing anything (a GET): the lead waits, or is confirmed. */
export interface ConfirmLinkState {
  status: LeadStatus;
  pageTitle: string;
  /** The file's absolute link when the lead is confirmed and the page has one. */
  fileUrl: string | null;
}

/** The confirming request: where it came from (kept on the lead as the confirmation's evidence). */
export interface ConfirmingRequest {
  ip: string;
  userAgent: string | null;
}

/**
 * Double opt-in: a sign-up on a page with `doubleOptIn` is stored `pending` with no conversion, no file e-mail
 * and no webhook; its visitor is e-mailed a link (`{PUBLIC_ORIGIN}/confirm/{token}`, the token sealed in the
 * job, its hash kept here), and only the POST of that link's Confirm button confirms the lead: then it counts
 * as a conversion, and its file e-mail and webhook are recorded, in that order and in the same transaction.
 *
 * It also answers a known address signing up again, on any page: a pending lead gets its confirmation e-mail
 * again and a confirmed one its file e-mail again, at most once per 10 minutes per address and page, and no
 * second lead.
 */
@Injectable()
export class DoubleOptInService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    private readonly clock: LeadClock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A sign-up on a double opt-in page: the lead pending and its confirmation e-mail; a known address: {@link signedUpAgain}. */
  async signUp(
    page: SubmissionPage,
    email: string,
    consentAt: Date | null,
    evidence: LeadEvidence | null = null,
    source: VisitSource | null = null,
    channel: LeadChannel | null = null,
  ): Promise<void> {
    const now = this.clock.now();
    const stored = await this.em.transactional(async (tx) => {
      const rows: { id: number }[] = await tx.execute(
        `insert into leads.leads (page_id, email, email_lower, consent_at, plan_version, status, created_at,
                                  consent_shown, consent_version, privacy_url, signup_ip, signup_user_agent,
                                  referrer, ref, ref_source, utm_source, utm_medium, utm_campaign, device, channel)
         values (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, cast(? as inet), ?, ?, ?, ?, ?, ?, ?, ?, ?)
         on conflict (page_id, email_lower) do nothing returning id`,
        [
          page.id,
          email,
          email.toLowerCase(),
          consentAt,
          page.planVersion,
          now,
          evidence?.consentShown ?? null,
          evidence?.consentVersion ?? null,
          evidence?.privacyUrl ?? null,
          evidence?.signupIp ?? null,
          evidence?.signupUserAgent ?? null,
          source?.referrer ?? null,
          source?.ref ?? null,
          source?.source ?? null,
          source?.utmSource ?? null,
          source?.utmMedium ?? null,
          source?.utmCampaign ?? null,
          source?.device ?? null,
          channel,
        ],
      );
      if (rows.length === 0) return false;
      await this.recordConfirmation(tx, page, Number(rows[0].id), email, false, now);
      return true;
    });
    if (!stored) await this.signedUpAgain(page, email);
  }

  /**
   * A sign-up with an address the page already has: the confirmation e-mail again when the lead is pending, the
   * file e-mail again when it is confirmed and the page has a file; nothing when the lead had such an e-mail (or
   * was created or confirmed) in the last 10 minutes. Answers whether an e-mail was recorded.
   */
  async signedUpAgain(page: SubmissionPage, email: string): Promise<boolean> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - RESEND_AFTER_MS);
    return this.em.transactional(async (tx) => {
      const rows: { id: number; email: string; status: LeadStatus }[] = await tx.execute(
        `update leads.leads set mailed_at = ?
          where page_id = ? and email_lower = ?
            and (status = 'pending' or ?)
            and greatest(created_at, coalesce(confirmed_at, created_at), coalesce(mailed_at, created_at)) <= ?
          returning id, email, status`,
        [now, page.id, email.toLowerCase(), page.fileUrl !== null, since],
      );
      const lead = rows[0];
      if (!lead) return false;
      if (lead.status === 'pending') await this.recordConfirmation(tx, page, Number(lead.id), lead.email, false, now);
      else this.outbox.record(tx, 'email.file-delivery', { ...fileDeliveryOf(page, lead.email), leadId: Number(lead.id) });
      return true;
    });
  }

  /** What the link's page shows for a token (a GET: nothing changes); null for an unknown or expired one. */
  async linkState(token: string): Promise<ConfirmLinkState | null> {
    const lead = await this.linkedLead(this.em, token, false);
    if (!lead) return null;
    const page = await this.pageOf(this.em, lead.page_id);
    if (!page) return null;
    return { status: lead.status, pageTitle: page.public.title, fileUrl: lead.status === 'confirmed' ? this.fileUrlOf(page) : null };
  }

  /**
   * The Confirm button: the lead confirmed with the time and (LEAD_EVIDENCE=full) the request's address and browser, its conversion
   * counted, its file e-mail and then its webhook recorded. A lead confirmed before is answered the same, and
   * nothing is sent again. 404 for an unknown or expired token.
   */
  async confirm(token: string, request: ConfirmingRequest): Promise<ConfirmLeadResponse & { pageTitle: string }> {
    const now = this.clock.now();
    return this.em.transactional(async (tx) => {
      const lead = await this.linkedLead(tx, token, true);
      const page = lead ? await this.pageOf(tx, lead.page_id) : null;
      if (!lead || !page) throw new NotFoundException({ message: ConfirmTexts.unknownToken });
      const fileUrl = this.fileUrlOf(page);
      const answer = { success: true as const, pageTitle: page.public.title, ...(fileUrl && { fileUrl }) };
      if (lead.status === 'confirmed') return answer;
      const id = Number(lead.id);
      const full = this.config.leadEvidence === 'full';
      await tx.execute(
        `update leads.leads set status = 'confirmed', confirmed_at = ?, confirm_ip = ?, confirm_user_agent = ?, plan_version = ?
          where id = ?`,
        // The address and browser only when the install keeps full evidence (LEAD_EVIDENCE=full); the time always.
        full ? [now, request.ip.slice(0, 45), request.userAgent?.trim().slice(0, 500) || null, page.planVersion, id] : [now, null, null, page.planVersion, id],
      );
      await tx.execute(
        `insert into leads.page_counters (page_id, shard, conversions) values (?, floor(random() * ${COUNTER_SHARDS})::smallint, 1)
         on conflict (page_id, shard) do update set conversions = leads.page_counters.conversions + 1`,
        [page.id],
      );
      // The file first, then the webhook: the automation tool hears of the lead once it is confirmed.
      if (page.fileUrl) this.outbox.record(tx, 'email.file-delivery', { ...fileDeliveryOf(page, lead.email), leadId: id });
      if (sendsWebhook(page)) {
        this.outbox.record(tx, 'webhook.deliver', {
          ...webhookDeliveryOf(page, lead.email, lead.consent_at ? new Date(lead.consent_at) : null, this.config.publicOrigin, {
            referrer: lead.referrer,
            utmSource: lead.utm_source,
            utmMedium: lead.utm_medium,
            utmCampaign: lead.utm_campaign,
            device: lead.device,
          }),
          leadId: id,
          createdAt: new Date(lead.created_at).toISOString(),
        });
      }
      if (sendsToHooks(page)) {
        this.outbox.record(tx, 'hook.deliver', {
          ...webhookDeliveryOf(page, lead.email, lead.consent_at ? new Date(lead.consent_at) : null, this.config.publicOrigin, {
            referrer: lead.referrer,
            utmSource: lead.utm_source,
            utmMedium: lead.utm_medium,
            utmCampaign: lead.utm_campaign,
            device: lead.device,
          }),
          ownerId: page.ownerId,
          leadId: id,
          createdAt: new Date(lead.created_at).toISOString(),
        });
      }
      return answer;
    });
  }

  /**
   * A new confirmation link for the lead (its token's hash kept beside the others: every link it was sent works
   * until it is confirmed or removed) and its e-mail, in `tx`.
   */
  async recordConfirmation(tx: EntityManager, page: SubmissionPage, leadId: number, email: string, reminder: boolean, now: Date): Promise<void> {
    const token = randomToken();
    await tx.execute('insert into leads.confirm_tokens (token_hash, lead_id, created_at) values (?, ?, ?)', [hashToken(token), leadId, now]);
    this.outbox.record(tx, 'email.lead-confirmation', {
      v: 1,
      leadId,
      to: email,
      page: { id: page.id, title: page.public.title },
      senderName: page.deliveryEmail?.senderName ?? page.ownerUsername,
      replyTo: page.deliveryEmail?.replyTo ?? null,
      sealedToken: seal(this.config.sessionSecret, token),
      reminder,
    });
  }

  /** The live page of an id from the read model, with its owner's plan (null: deleted or never heard of). */
  async pageOf(em: EntityManager, pageId: number): Promise<SubmissionPage | null> {
    const rows: Parameters<typeof toSubmissionPage>[1][] & { page_id: number }[] = await em.execute(
      `select f.page_id, f.slug, f.owner_username, f.paused, f.file_url, f.webhook_on, f.public, f.delivery_email, f.version, ${OWNER_COLUMNS}
         from leads.page_facts f ${OWNER_JOINS}
        where f.page_id = ? and not f.deleted`,
      [pageId],
    );
    return rows[0] ? toSubmissionPage(pageId, rows[0]) : null;
  }

  /** The lead of a token; a pending one older than the expiry is gone already (the sweep removes it soon). */
  private async linkedLead(em: EntityManager, token: string, lock: boolean): Promise<LinkedLead | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const rows: LinkedLead[] = await em.execute(
      `select l.id, l.page_id, l.email, l.status, l.created_at, l.consent_at, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.device
         from leads.confirm_tokens t join leads.leads l on l.id = t.lead_id
        where t.token_hash = ?${lock ? ' for update of l' : ''}`,
      [hashToken(token)],
    );
    const lead = rows[0];
    if (!lead) return null;
    const expired = lead.status === 'pending' && new Date(lead.created_at).getTime() <= this.clock.now().getTime() - EXPIRE_AFTER_MS;
    return expired ? null : lead;
  }

  /** The page's file as an absolute link (`/uploads/…` files are this install's own), or null. */
  private fileUrlOf(page: SubmissionPage): string | null {
    if (!page.fileUrl) return null;
    return page.fileUrl.startsWith('/') ? `${this.config.appOrigin}${page.fileUrl}` : page.fileUrl;
  }
}
