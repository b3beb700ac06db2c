import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { EntityManager } from '@mikro-orm/postgresql';
import { QUEUE_SETTINGS, QueueName, type AccountEmail, type JobPayload } from '@plink/contracts';
import { APP_CONFIG, ContractWorker, Mailer, Outbox, getLogger, unseal, type AppConfig, type JobHandlers, type MailMessage } from '@plink/platform';
import { fileDeliveryEmail } from '../templates/file-delivery-email';
import { passwordResetEmail, verificationEmail } from '../templates/identity-emails';
import { leadRemovalWarningEmail, paymentFailedEmail, proEndedEmail, proStartedEmail, trialEndingEmail } from '../templates/plan-emails';
import { webhookDisabledEmail } from '../templates/webhook-emails';

/** An account e-mail job by user id (version 1): the identity service addresses it first. */
type ByUserId<N extends AccountEmail> = Extract<JobPayload<N>, { v: 1; userId: number }>;

/**
 * Sends the e-mails of the e-mail queue. A failed send throws, and BullMQ retries with backoff.
 *
 * This service reads no other service's tables: a job in version 2 carries what its e-mail shows (the
 * address and name, the page's title and file link), and the checks that need another service's data were
 * made by that service before it recorded the job (see the producers: identity addresses account e-mails and
 * checks them, the leads service records the file e-mail of a new lead only; billing records its plan e-mails
 * with identity, and the lead-removal warning with the pages service). A job by user id (version 1: recorded
 * by an earlier release and still queued) is handed to the identity service ('identity.account-email'), which
 * checks and addresses it and records it again in version 2; a version-1 lead-removal warning goes to the pages
 * service first, which knows whether the user has paused pages.
 */
@Processor(QueueName.Email, { concurrency: QUEUE_SETTINGS[QueueName.Email].concurrency })
export class EmailProcessor extends ContractWorker<QueueName.Email> {
  protected readonly queueName = QueueName.Email;
  protected readonly handlers: JobHandlers<QueueName.Email> = {
    'email.verification': (payload) =>
      payload.v === 1
        ? this.toIdentity('email.verification', payload)
        : this.send(verificationEmail(this.config.appOrigin, payload.to, this.token(payload.sealedToken))),
    'email.password-reset': (payload) =>
      payload.v === 1
        ? this.toIdentity('email.password-reset', payload)
        : this.send(passwordResetEmail(this.config.appOrigin, payload.to, this.token(payload.sealedToken))),
    'email.file-delivery': (payload) => this.sendFileDelivery(payload),
    'email.pro-started': (payload) =>
      payload.v === 1
        ? this.toIdentity('email.pro-started', payload)
        : this.send(proStartedEmail(this.config.appOrigin, payload.to, payload.until ? new Date(payload.until) : null, payload.trial ? 'trial' : 'plan')),
    'email.trial-ending': (payload) =>
      payload.v === 1
        ? this.toIdentity('email.trial-ending', payload)
        : this.send(trialEndingEmail(this.config.appOrigin, payload.to, new Date(payload.trialEnd), payload.cardOnFile)),
    'email.payment-failed': (payload) =>
      payload.v === 1 ? this.toIdentity('email.payment-failed', payload) : this.send(paymentFailedEmail(this.config.appOrigin, payload.to)),
    'email.pro-ended': (payload) =>
      payload.v === 1 ? this.toIdentity('email.pro-ended', payload) : this.send(proEndedEmail(this.config.appOrigin, payload.to)),
    'email.lead-removal-warning': (payload) => this.sendLeadRemovalWarning(payload),
    'email.webhook-disabled': (payload) => this.sendWebhookDisabled(payload),
  };

  constructor(
    private readonly mailer: Mailer,
    private readonly outbox: Outbox,
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  private async send(mail: MailMessage): Promise<void> {
    await this.mailer.send(mail);
  }

  private token(sealedToken: string): string {
    return unseal(this.config.sessionSecret, sealedToken);
  }

  /** An account e-mail by user id: identity checks it is still wanted and records it with the address. */
  private async toIdentity<N extends AccountEmail>(email: N, payload: ByUserId<N>): Promise<void> {
    const { v: _v, userId, ...content } = payload;
    await this.record((em) => this.outbox.record(em, 'identity.account-email', { v: 1, userId, email, content }));
  }

  /** Records jobs in a unit of work of their own (this job completes once they are committed). */
  private async record(work: (em: EntityManager) => void): Promise<void> {
    const em = this.em.fork();
    work(em);
    await em.flush();
  }

  /**
   * The warning before the leads of paused pages go: only to a user who still has paused pages and is not Pro
   * again. Recorded by billing by user id: the pages service checks the paused pages, then identity the plan.
   */
  private async sendLeadRemovalWarning(payload: JobPayload<'email.lead-removal-warning'>): Promise<void> {
    if (payload.v === 2) {
      await this.send(leadRemovalWarningEmail(this.config.appOrigin, payload.to, new Date(payload.removalAt)));
      return;
    }
    await this.record((em) => this.outbox.record(em, 'pages.lead-removal-warning', { v: 1, userId: payload.userId, removalAt: payload.removalAt }));
  }

  /** The owner of a page whose webhook Plink turned off (the page as it was then, the owner's address). */
  private async sendWebhookDisabled(payload: JobPayload<'email.webhook-disabled'>): Promise<void> {
    if (payload.v === 1) {
      // Queued by a release that let this worker read the page and its owner; it reads neither any more.
      getLogger().warn({ pageId: payload.pageId }, 'webhook-disabled e-mail of the former shape (page id only) not sent');
      return;
    }
    await this.send(webhookDisabledEmail(this.config.appOrigin, payload.to, { id: payload.page.id, title: payload.page.title, url: payload.page.webhookUrl }, payload.reason));
  }

  /** The file link of the page a visitor signed up on; nothing the visitor typed besides the address. */
  private async sendFileDelivery(payload: JobPayload<'email.file-delivery'>): Promise<void> {
    if (payload.v === 1) {
      // Queued by a release that let this worker read the lead and its page; it reads neither any more.
      getLogger().warn({ leadId: payload.leadId }, 'file-delivery e-mail of the former shape (lead id only) not sent');
      return;
    }
    await this.send(fileDeliveryEmail(this.config.appOrigin, payload.to, { title: payload.page.title, fileUrl: payload.page.fileUrl }));
  }
}
