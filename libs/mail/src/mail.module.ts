import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { FolderMailer } from './folder.mailer';
import { Mailer } from './mail.port';
import { SmtpMailer } from './smtp.mailer';

export function createMailer(config: AppConfig): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  // Tests read the folder (or catch SMTP) themselves: the console lines for a newcomer would only bury their output.
  return new FolderMailer(config.mailOutboxDir, config.mailFrom, config.env === 'test' ? () => undefined : undefined);
}

/** Closes the mailer's kept-open SMTP connections when the application stops. */
class MailerLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Mailer) private readonly mailer: Mailer) {}
  onApplicationShutdown() {
    this.mailer.close();
  }
}

@Global()
@Module({
  providers: [{ provide: Mailer, inject: [APP_CONFIG], useFactory: createMailer }, MailerLifecycle],
  exports: [Mailer],
})
export class MailModule {}
