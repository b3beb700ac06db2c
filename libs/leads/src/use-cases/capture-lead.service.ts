import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EMBED_SOURCE, LeadMessages, mayBePageSlug, shownThankYouSubtext, type BlockReason, type LeadChannel, submitLeadSchema, type PublicPageDto, type SubmitLeadResponse } from '@plink/contracts';
import { thankYouButton } from '@plink/page-render';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Outbox, type DeferredJob } from '@plink/queue';
import { RateLimiter } from '@plink/redis';
import { ZodPipe, tooManyRequests, visitSourceOf, type VisitSource } from '@plink/http';
import { LeadBatcher } from '../model/lead-batcher';
import { ConsentTexts } from '../model/consent-texts';
import { evidenceOf, type LeadEvidence } from '../model/lead-evidence';
import { BlockedCounter } from '../shield/blocked-counter';
import { FloodWatch } from '../shield/flood-watch';
import { EmailDomainCheck } from '../shield/email-domains';
import { ExpiredFormToken, FormTokenVerifier } from '../shield/form-token-check';
import { sendsToHooks, sendsWebhook, type SubmissionPage } from '../page-facts/page-facts.repository';
import { SubmissionPages } from '../page-facts/submission-pages';
import { fileDeliveryOf, webhookDeliveryOf } from './lead-jobs';
import { DoubleOptInService } from '../double-opt-in/double-opt-in.service';

const validate = new ZodPipe(submitLeadSchema);

/**
 * Where a submission came from besides its body: the Referer of a no-JavaScript post on the page itself, or the
 * site a form embedded elsewhere stands on — `script` (embed.js, which fetched its form token) or `html` (the
 * plain form, which carries none: always confirmed by e-mail).
 */
export interface SubmissionContext {
  formReferer?: string;
  embed?: { form: 'script' | 'html'; host: string | undefined };
}

/**
 * What the page shows after a submission (thank-you, button, redirect): the button follows the renderer's own rule
 * (text and a safe URL both set), so the JSON answer and the rendered thank-you state agree.
 */
export function thankYouOf(page: PublicPageDto): SubmitLeadResponse {
  return {
    success: true,
    thankYouHeadline: page.thankYouHeadline,
    thankYouSubtext: page.thankYouSubtext,
    thankYouButton: thankYouButton(page),
    redirectUrl: page.redirectUrl,
  };
}

/**
 * A visitor leaves an e-mail address on a page (JSON call or the no-JavaScript form post).
 * One lead per page and lower-cased address: the lead, its conversion and its jobs (file e-mail,
 * Pro webhook) are written in one transaction, and only when the address is new to the page; a
 * repeat, a double click or a bot caught by the shield (honeypot, form token, timing) gets the same success
 * answer (a repeat of a known address gets its file e-mail, or its pending confirmation e-mail, again: at most
 * once per 10 minutes). On a double opt-in page the lead is stored pending, and the file e-mail and webhook
 * wait for its confirmation.
 */
@Injectable()
export class CaptureLeadService {
  constructor(
    private readonly pages: SubmissionPages,
    private readonly leads: LeadBatcher,
    private readonly outbox: Outbox,
    private readonly limiter: RateLimiter,
    private readonly optIn: DoubleOptInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly consentTexts: ConsentTexts,
    private readonly formTokens: FormTokenVerifier,
    private readonly domains: EmailDomainCheck,
    private readonly blocked: BlockedCounter,
    private readonly flood: FloodWatch,
  ) {}

  /** The page of a public slug (any case), or null (reserved first segments are never pages). */
  async lookUpPage(slug: string): Promise<SubmissionPage | null> {
    if (!mayBePageSlug(slug)) return null;
    return this.pages.find(slug);
  }

  /** The page of a public slug; 404 when there is none. */
  async findPage(slug: string): Promise<SubmissionPage> {
    const page = await this.lookUpPage(slug);
    if (!page) throw new NotFoundException({ message: LeadMessages.pageNotFound });
    return page;
  }

  /**
   * Validates and stores one submission from `address`; throws 400/429 with the visitor-facing text, and
   * 404 'This page is paused…' for a page paused after its owner's downgrade (nothing is stored). On an
   * example page a valid submission is answered like any other, but nothing is stored. `userAgent` (the
   * request's) goes into the lead's proof of consent with `address` when LEAD_EVIDENCE is full.
   */
  async execute(page: SubmissionPage, input: unknown, address: string, userAgent?: string, context: SubmissionContext = {}): Promise<SubmitLeadResponse> {
    if (page.paused) throw new NotFoundException({ message: LeadMessages.pagePaused });
    await this.limit(page.id, address);
    const body = validate.transform(input);
    if (!body.consent && !page.public.hidePrivacyPolicyCheckbox) {
      throw new BadRequestException({ message: LeadMessages.consentRequired });
    }
    // The bot shield: a refusal a bot could learn from is answered like a success, and nothing is stored.
    // The plain form on another site cannot carry a fresh token: it skips the token and is confirmed by e-mail
    // instead, so a script posting that way (anyone can) gets no more than a confirmation e-mail sent.
    const plainEmbed = context.embed?.form === 'html';
    if (!(plainEmbed ? this.passesHoneypot(page, body) : this.passesShield(page, body))) return this.answerOf(page, plainEmbed);
    // Plink's example pages show the whole visitor journey but keep nothing: no lead, no e-mail, no webhook.
    const isExample = page.public.isExample === true;
    if (isExample) return this.answerOf(page);
    await this.checkDomain(page, body.email);
    this.flood.countAccepted(page.id);
    const { evidence, consentText } = evidenceOf(page.public, { ip: address, userAgent }, this.config);
    // The text is stored before the first lead that names it (once per process and text).
    if (consentText !== null && evidence.consentVersion) await this.consentTexts.ensure(evidence.consentVersion, consentText);
    // The page's script sends where the visitor came from and the page's query; a form post without
    // JavaScript comes from the page itself, so its Referer is the page's address with that query.
    // An embedded form's sign-up counts under the source `embed`, with the host site as its referrer.
    const embed = context.embed;
    const source = embed
      ? visitSourceOf({ referer: embed.host ? `https://${embed.host}/` : undefined, query: `utm_source=${EMBED_SOURCE}`, userAgent }, this.ownHosts)
      : visitSourceOf(
          body.query !== undefined || body.referrer !== undefined
            ? { referer: body.referrer, query: body.query ?? '', userAgent }
            : { query: context.formReferer, userAgent },
          this.ownHosts,
        );
    const channel: LeadChannel = embed ? (plainEmbed ? 'html' : 'embed') : 'page';
    await this.store(page, body.email, body.consent ? new Date() : null, evidence, source, { confirm: plainEmbed, channel });
    return this.answerOf(page, plainEmbed);
  }

  /**
   * Whether a sign-up on this page now waits for its e-mail confirmation although the page does not always ask
   * for one (it is under attack, or it comes from the plain form embedded on another site): its thank-you then
   * says to confirm. Judged by the page and the form, not by the outcome, so a refused bot is answered like a visitor.
   */
  asksToConfirm(page: SubmissionPage, plainEmbed = false): boolean {
    return !page.public.doubleOptIn && (plainEmbed || this.flood.underAttack(page.id));
  }

  /** The thank-you answer: a visitor asked to confirm is told so, as on a double opt-in page (unless the creator wrote their own text). */
  private answerOf(page: SubmissionPage, plainEmbed = false): SubmitLeadResponse {
    const answer = thankYouOf(page.public);
    if (!this.asksToConfirm(page, plainEmbed)) return answer;
    return { ...answer, thankYouSubtext: shownThankYouSubtext({ doubleOptIn: true, thankYouSubtext: page.public.thankYouSubtext }) };
  }

  /**
   * A lead sent by the owner's automation tool (`POST /api/v1/pages/{id}/leads`): stored as the form stores one
   * (the same statement, file e-mail, webhook and hooks; a double opt-in page e-mails the confirmation link),
   * without the form's bot checks, which judge a browser. False when the address was already a lead of the page
   * (nothing is sent again). The evidence records the consent text the page shows, not the tool's address.
   */
  async captureFromApi(page: SubmissionPage, email: string, consent: boolean): Promise<boolean> {
    if (page.paused) throw new NotFoundException({ message: LeadMessages.pagePaused });
    const { evidence, consentText } = evidenceOf(page.public, { ip: '' }, { ...this.config, leadEvidence: 'minimal' });
    if (consentText !== null && evidence.consentVersion) await this.consentTexts.ensure(evidence.consentVersion, consentText);
    // No visit: no referrer or campaign; the device class is not known (stored as null).
    const source: VisitSource = { referrer: null, ref: null, source: null, utmSource: null, utmMedium: null, utmCampaign: null, device: null };
    return this.store(page, email, consent ? new Date() : null, evidence, source, { repeatSends: false, channel: 'api' });
  }

  /** The form token of the form re-drawn after a refused no-JavaScript post (see FormTokenVerifier.forRedraw). */
  tokenForRedraw(pageId: number, submitted: unknown): string {
    return this.formTokens.forRedraw(submitted, pageId);
  }

  /**
   * The honeypot and the form token (see docs/security.md): false, counted, when the submission is a
   * script's; throws {@link ExpiredFormToken} (counted as `token`) for a genuine token older than 2 h.
   */
  private passesShield(page: SubmissionPage, body: { website?: string; formToken?: string }): boolean {
    if (!this.passesHoneypot(page, body)) return false;
    const token = this.formTokens.check(body.formToken, page.id);
    if (token === 'ok') return true;
    this.refused(page.id, token === 'early' ? 'timing' : 'token');
    if (token === 'expired') throw new ExpiredFormToken(this.formTokens.renewExpired(page.id));
    return false;
  }

  /** False, counted, when the honeypot field is filled. */
  private passesHoneypot(page: SubmissionPage, body: { website?: string }): boolean {
    if (!body.website || body.website.trim() === '') return true;
    this.refused(page.id, 'honeypot');
    return false;
  }

  /** Throwaway domains and domains without mail, on pages that refuse them (the default): 400 with the reason. */
  private async checkDomain(page: SubmissionPage, email: string): Promise<void> {
    if (page.public.refuseThrowaway === false) return;
    const refusal = await this.domains.refusal(email);
    if (!refusal) return;
    this.refused(page.id, refusal);
    throw new BadRequestException({ message: refusal === 'disposable' ? LeadMessages.throwawayDomain : LeadMessages.domainWithoutMail });
  }

  /** Counts a refusal (per reason, for the stats) and lets the "under attack" rule look at the page. */
  private refused(pageId: number, reason: BlockReason): void {
    this.blocked.count(pageId, reason);
    this.flood.countRefused(pageId);
  }

  /** LEAD_RATE_LIMIT_PER_MINUTE submissions per address and page (0 = off). */
  private async limit(pageId: number, address: string): Promise<void> {
    const limit = this.config.leadRateLimitPerMinute;
    if (limit <= 0) return;
    const decision = await this.limiter.hit('lead-submit', `${pageId}:${address}`, limit, 60);
    if (!decision.allowed) {
      this.refused(pageId, 'rateLimit');
      throw tooManyRequests(LeadMessages.tooManySubmissions, decision.retryAfterSeconds);
    }
  }

  private hosts?: string[];
  /** The hosts a referrer is not counted from (the landing pages' and the app's). */
  private get ownHosts(): string[] {
    return (this.hosts ??= [hostOf(this.config.appOrigin), hostOf(this.config.publicOrigin)].filter((h): h is string => !!h));
  }

  /**
   * The lead, its conversion and its jobs (file e-mail, Pro webhook, each with the lead's id) in one
   * statement, so they are saved together or not at all — a statement shared with the submissions that
   * arrive meanwhile (LeadBatcher); it resolves once committed. The jobs carry what they send (the
   * notifications service reads neither leads nor pages): the address, the page as the visitor saw it, and
   * for the webhook the lead's creation time (written by the statement, the one stored). Whether they are
   * due is decided here: the lead is new and the page has a file, or its webhook on and its owner on Pro in
   * the plan version this capture read (kept on the lead: the plan in force for it).
   */
  private async store(
    page: SubmissionPage,
    email: string,
    consentAt: Date | null,
    evidence: LeadEvidence,
    source: VisitSource,
    { confirm = false, repeatSends = true, channel }: { confirm?: boolean; repeatSends?: boolean; channel: LeadChannel },
  ): Promise<boolean> {
    // A double opt-in page keeps the lead pending and e-mails the confirmation link instead (DoubleOptInService);
    // so does a page under attack (FloodWatch), whatever its own setting, and the plain form embedded elsewhere.
    if (confirm || page.public.doubleOptIn || this.flood.underAttack(page.id)) {
      await this.optIn.signUp(page, email, consentAt, evidence, source, channel);
      return true;
    }
    const jobs: DeferredJob[] = [];
    if (page.fileUrl) {
      jobs.push({
        name: 'email.file-delivery',
        payload: fileDeliveryOf(page, email),
        idField: 'leadId',
      });
    }
    if (sendsWebhook(page)) {
      jobs.push({
        name: 'webhook.deliver',
        payload: webhookDeliveryOf(page, email, consentAt, this.config.publicOrigin, source),
        idField: 'leadId',
        timeField: 'createdAt',
      });
    }
    // The owner's hook subscriptions (known from the same read as the page: no query when there are none).
    if (sendsToHooks(page)) {
      jobs.push({
        name: 'hook.deliver',
        payload: { ...webhookDeliveryOf(page, email, consentAt, this.config.publicOrigin, source), ownerId: page.ownerId },
        idField: 'leadId',
        timeField: 'createdAt',
      });
    }
    const id = await this.leads.store({
      pageId: page.id,
      email,
      emailLower: email.toLowerCase(),
      consentAt,
      planVersion: page.planVersion,
      jobs: this.outbox.jobsForNewRow(jobs),
      evidence,
      source,
      channel,
    });
    // The address was already a lead of the page: its file again, or its confirmation link again (throttled).
    if (id === null && repeatSends) await this.optIn.signedUpAgain(page, email);
    return id !== null;
  }
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
