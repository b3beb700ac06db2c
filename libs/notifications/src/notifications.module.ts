import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { EmailProcessor } from './processors/email.processor';

/** The notifications service's workers: the e-mail queue. */
@Module({ imports: [IdentityReadModule], providers: [EmailProcessor] })
export class NotificationsWorkerModule {}
