import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QUEUE_SETTINGS, QueueName, type JobPayload } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ContractWorker, type JobHandlers } from '@plink/queue';
import { Mailer, type MailMessage } from '@plink/mail';
import { unseal } from '@plink/crypto';
import { getLogger, runWithCorrelation } from '@plink/observability';
import { fileDeliveryEmail } from '../templates/file-delivery-email';
import { leadConfirmationEmail } from '../templates/lead-confirmation-email';
import { accountDeletedEmail, accountExportReadyEmail, emailChangeConfirmEmail, emailChangeNoticeEmail, passwordResetEmail, verificationEmail } from '../templates/identity-emails';
import { leadRemovalWarningEmail, paymentFailedEmail, proEndedEmail, proStartedEmail, trialEndingEmail } from '../templates/plan-emails';
import { pageUnderAttackEmail, webhookDisabledEmail } from '../templates/webhook-emails';
import { WebhookLogRepository, leadKey } from '../webhooks/webhook-log.repository';

type FileEmailMember = JobPayload<'email.file-delivery-many'>['jobs'][number];

/** The members of a file e-mail group already sent or dropped, as a failed run left them in the job's progress. */
function settledOf(progress: unknown): number[] {
  const settled = (progress as { settled?: unknown } | null)?.settled;
  return Array.isArray(settled) ? settled.filter((index): index is number => Number.isInteger(index)) : [];
}

/**
 * Sends the e-mails of the e-mail queue. A failed send throws, and BullMQ retries with backoff.
 *
 * This service reads no other service's tables: a job carries what its e-mail shows (the address and name,
 * the page's title and file link), and the checks that need another service's data were made by that service
 * before it recorded the job (see the producers: identity addresses account e-mails and checks them, the leads
 * service records the file e-mail of a new or confirmed lead, and the confirmation e-mail of a double opt-in sign-up; billing records its plan e-mails with identity, and the
 * lead-removal warning with the pages service). A lead's e-mail is dropped when its creator has deleted the lead
 * meanwhile (this service's own record of erasures).
 */
@Processor(QueueName.Email, { concurrency: QUEUE_SETTINGS[QueueName.Email].concurrency })
export class EmailProcessor extends ContractWorker<QueueName.Email> {
  protected readonly queueName = QueueName.Email;
  protected readonly handlers: JobHandlers<QueueName.Email> = {
    'email.verification': (payload) => this.send(verificationEmail(this.config.appOrigin, payload.to, this.token(payload.sealedToken))),
    'email.password-reset': (payload) => this.send(passwordResetEmail(this.config.appOrigin, payload.to, this.token(payload.sealedToken))),
    'email.email-change-confirm': (payload) => this.send(emailChangeConfirmEmail(this.config.appOrigin, payload.to, this.token(payload.sealedToken))),
    'email.email-change-notice': (payload) => this.send(emailChangeNoticeEmail(this.config.appOrigin, payload.to, payload.newEmail, payload.stage)),
    'email.account-export-ready': (payload) => this.send(accountExportReadyEmail(payload.to, payload.link, new Date(payload.expiresAt))),
    'email.account-deleted': (payload) => this.send(accountDeletedEmail(this.config.appOrigin, payload.to)),
    'email.file-delivery': async (payload) => {
      if (payload.leadId !== undefined && (await this.erased(payload.page.id, payload.leadId))) return;
      await this.send(fileDeliveryEmail(this.config.appOrigin, payload));
    },
    'email.file-delivery-many': (payload, job) => this.sendFileEmails(payload.jobs, job),
    'email.lead-confirmation': async (payload) => {
      if (await this.erased(payload.page.id, payload.leadId)) return;
      await this.send(leadConfirmationEmail(this.config.publicOrigin, payload, this.token(payload.sealedToken)));
    },
    'email.pro-started': (payload) =>
      this.send(proStartedEmail(this.config.appOrigin, payload.to, payload.until ? new Date(payload.until) : null, payload.trial ? 'trial' : 'plan')),
    'email.trial-ending': (payload) => this.send(trialEndingEmail(this.config.appOrigin, payload.to, new Date(payload.trialEnd), payload.cardOnFile)),
    'email.payment-failed': (payload) => this.send(paymentFailedEmail(this.config.appOrigin, payload.to)),
    'email.pro-ended': (payload) => this.send(proEndedEmail(this.config.appOrigin, payload.to)),
    'email.lead-removal-warning': (payload) => this.send(leadRemovalWarningEmail(this.config.appOrigin, payload.to, new Date(payload.removalAt))),
    'email.webhook-disabled': (payload) =>
      this.send(
        webhookDisabledEmail(this.config.appOrigin, payload.to, { id: payload.page.id, title: payload.page.title, url: payload.page.webhookUrl }, payload.reason),
      ),
    'email.page-under-attack': (payload) => this.send(pageUnderAttackEmail(this.config.appOrigin, payload.to, payload.page, new Date(payload.until))),
  };

  constructor(
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly log: WebhookLogRepository,
  ) {
    super();
  }

  /**
   * The creator deleted this lead ('leads.deleted', kept 30 days in this service's own table): its e-mail still
   * queued, or waiting for a retry while the mail server was away, goes to no one. An e-mail already handed to
   * the server cannot be called back.
   */
  private async erased(pageId: number, leadId: number): Promise<boolean> {
    const erased = (await this.log.erasedAmong([{ pageId, leadId }])).size > 0;
    if (erased) getLogger().info({ pageId, leadId }, 'e-mail of a deleted lead not sent');
    return erased;
  }

  /**
   * The file e-mails of one relay pass, side by side (the mail pool bounds how many go at once), each under the
   * correlation id of the request that captured its lead; those of deleted leads are dropped (one lookup for all).
   * When some fail (the mail server away), the job's progress keeps which were sent or dropped and the job fails,
   * so its retry sends only the others: no visitor gets their file twice because another visitor's e-mail failed.
   */
  private async sendFileEmails(members: readonly FileEmailMember[], job: Job): Promise<void> {
    const done = new Set(settledOf(job.progress));
    const keyed = members.flatMap(({ payload }) => (payload.leadId === undefined ? [] : [{ pageId: payload.page.id, leadId: payload.leadId }]));
    const erased = await this.log.erasedAmong(keyed);
    const failures: unknown[] = [];
    await Promise.all(
      members.map((member, index) =>
        done.has(index)
          ? undefined
          : runWithCorrelation(member.correlationId, async () => {
              const { payload } = member;
              if (payload.leadId !== undefined && erased.has(leadKey({ pageId: payload.page.id, leadId: payload.leadId }))) {
                getLogger().info({ pageId: payload.page.id, leadId: payload.leadId }, 'e-mail of a deleted lead not sent');
              } else {
                try {
                  await this.send(fileDeliveryEmail(this.config.appOrigin, payload));
                } catch (err) {
                  failures.push(err);
                  return;
                }
              }
              done.add(index);
            }),
      ),
    );
    if (failures.length === 0) return;
    await job.updateProgress({ settled: [...done].sort((a, b) => a - b) });
    throw failures[0];
  }

  private async send(mail: MailMessage): Promise<void> {
    await this.mailer.send(mail);
  }

  private token(sealedToken: string): string {
    return unseal(this.config.sessionSecret, sealedToken);
  }
}
