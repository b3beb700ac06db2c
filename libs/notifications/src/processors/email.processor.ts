import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName, type JobPayload } from '@plink/contracts';
import { IdentityDirectory, type UserContact } from '@plink/identity';
import { LeadsDirectory } from '@plink/leads';
import { PagesDirectory } from '@plink/pages';
import { APP_CONFIG, ContractWorker, Mailer, getLogger, hashToken, unseal, type AppConfig, type JobHandlers, type MailMessage } from '@plink/platform';
import { fileDeliveryEmail } from '../templates/file-delivery-email';
import { passwordResetEmail, verificationEmail } from '../templates/identity-emails';
import { leadRemovalWarningEmail, paymentFailedEmail, proEndedEmail, proStartedEmail, trialEndingEmail } from '../templates/plan-emails';
import { webhookDisabledEmail } from '../templates/webhook-emails';

/** Sends the e-mails of the e-mail queue. A failed send throws, and BullMQ retries with backoff. */
@Processor(QueueName.Email, { concurrency: QUEUE_SETTINGS[QueueName.Email].concurrency })
export class EmailProcessor extends ContractWorker<QueueName.Email> {
  protected readonly queueName = QueueName.Email;
  protected readonly handlers: JobHandlers<QueueName.Email> = {
    'email.verification': (payload) => this.sendVerification(payload),
    'email.password-reset': (payload) => this.sendPasswordReset(payload),
    'email.file-delivery': (payload) => this.sendFileDelivery(payload),
    'email.pro-started': (payload) =>
      this.sendPlanEmail(payload.userId, (user) => proStartedEmail(this.config.appOrigin, user, payload.until ? new Date(payload.until) : null, payload.trial ? 'trial' : 'plan')),
    'email.trial-ending': (payload) =>
      this.sendPlanEmail(payload.userId, (user) => trialEndingEmail(this.config.appOrigin, user, new Date(payload.trialEnd), payload.cardOnFile)),
    'email.payment-failed': (payload) => this.sendPlanEmail(payload.userId, (user) => paymentFailedEmail(this.config.appOrigin, user)),
    'email.pro-ended': (payload) => this.sendPlanEmail(payload.userId, (user) => proEndedEmail(this.config.appOrigin, user)),
    'email.lead-removal-warning': (payload) => this.sendLeadRemovalWarning(payload),
    'email.webhook-disabled': (payload) => this.sendWebhookDisabled(payload),
  };

  constructor(
    private readonly directory: IdentityDirectory,
    private readonly leads: LeadsDirectory,
    private readonly pages: PagesDirectory,
    private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  private async sendVerification(payload: JobPayload<'email.verification'>): Promise<void> {
    const token = unseal(this.config.sessionSecret, payload.sealedToken);
    const user = await this.directory.findContact(payload.userId);
    if (!user || user.isVerified) {
      getLogger().info({ userId: payload.userId }, 'verification e-mail not needed any more');
      return;
    }
    if (!(await this.directory.isCurrentToken(user.id, 'verification', hashToken(token)))) {
      getLogger().info({ userId: user.id }, 'verification e-mail skipped: a newer link replaced this one');
      return;
    }
    await this.mailer.send(verificationEmail(this.config.appOrigin, user, token));
  }

  private async sendPasswordReset(payload: JobPayload<'email.password-reset'>): Promise<void> {
    const token = unseal(this.config.sessionSecret, payload.sealedToken);
    const user = await this.directory.findContact(payload.userId);
    if (!user || !(await this.directory.isCurrentToken(user.id, 'reset', hashToken(token)))) {
      getLogger().info({ userId: payload.userId }, 'password-reset e-mail skipped: link no longer current');
      return;
    }
    await this.mailer.send(passwordResetEmail(this.config.appOrigin, user, token));
  }

  /** An e-mail to the account's address (skipped when the account is gone). */
  private async sendPlanEmail(userId: number, render: (user: UserContact) => MailMessage): Promise<void> {
    const user = await this.directory.findContact(userId);
    if (!user) {
      getLogger().info({ userId }, 'plan e-mail skipped: the account is gone');
      return;
    }
    await this.mailer.send(render(user));
  }

  /** The warning before the leads of paused pages go: only to a user who still has paused pages and is not Pro again. */
  private async sendLeadRemovalWarning(payload: JobPayload<'email.lead-removal-warning'>): Promise<void> {
    const user = await this.directory.findContact(payload.userId);
    if (!user || user.isPremium || (await this.pages.countPaused(user.id)) === 0) {
      getLogger().info({ userId: payload.userId }, 'lead-removal warning skipped: no paused pages, Pro again, or the account is gone');
      return;
    }
    await this.mailer.send(leadRemovalWarningEmail(this.config.appOrigin, user, new Date(payload.removalAt)));
  }

  /** The owner of a page whose webhook Plink turned off. */
  private async sendWebhookDisabled(payload: JobPayload<'email.webhook-disabled'>): Promise<void> {
    const page = await this.pages.findWebhookTarget(payload.pageId);
    if (!page) {
      getLogger().info({ pageId: payload.pageId }, 'webhook-disabled e-mail skipped: the page is gone');
      return;
    }
    await this.sendPlanEmail(page.ownerId, (user) =>
      webhookDisabledEmail(this.config.appOrigin, user, { id: page.pageId, title: page.title, url: page.url }, payload.reason),
    );
  }

  /** The file link of the page a visitor signed up on; nothing the visitor typed besides the address. */
  private async sendFileDelivery(payload: JobPayload<'email.file-delivery'>): Promise<void> {
    const lead = await this.leads.findForDelivery(payload.leadId);
    if (!lead) {
      getLogger().info({ leadId: payload.leadId }, 'file-delivery e-mail skipped: the lead is gone');
      return;
    }
    const page = await this.pages.findById(lead.pageId);
    if (!page?.fileUrl) {
      getLogger().info({ leadId: lead.id, pageId: lead.pageId }, 'file-delivery e-mail skipped: no page or no file');
      return;
    }
    await this.mailer.send(fileDeliveryEmail(this.config.appOrigin, lead.email, { title: page.title, fileUrl: page.fileUrl }));
  }
}
