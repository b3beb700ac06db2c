import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { FolderMailer } from './folder.mailer';
import { Mailer } from './mail.port';
import { SmtpMailer } from './smtp.mailer';

export function createMailer(config: AppConfig): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new FolderMailer(config.mailOutboxDir, config.mailFrom);
}

@Global()
@Module({
  providers: [{ provide: Mailer, inject: [APP_CONFIG], useFactory: createMailer }],
  exports: [Mailer],
})
export class MailModule {}
