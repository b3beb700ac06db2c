import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { QUEUE_SETTINGS, QueueName, type JobPayload } from '@plink/contracts';
import { IdentityDirectory } from '@plink/identity';
import { APP_CONFIG, ContractWorker, Mailer, getLogger, hashToken, unseal, type AppConfig, type JobHandlers } from '@plink/platform';
import { passwordResetEmail, verificationEmail } from '../templates/identity-emails';

/** Sends the e-mails of the e-mail queue. A failed send throws, and BullMQ retries with backoff. */
@Processor(QueueName.Email, { concurrency: QUEUE_SETTINGS[QueueName.Email].concurrency })
export class EmailProcessor extends ContractWorker<QueueName.Email> {
  protected readonly queueName = QueueName.Email;
  protected readonly handlers: JobHandlers<QueueName.Email> = {
    'email.verification': (payload) => this.sendVerification(payload),
    'email.password-reset': (payload) => this.sendPasswordReset(payload),
  };

  constructor(
    private readonly directory: IdentityDirectory,
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
}
