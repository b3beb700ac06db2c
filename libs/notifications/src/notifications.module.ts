import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { LeadsReadModule } from '@plink/leads';
import { PagesReadModule } from '@plink/pages';
import { EmailProcessor } from './processors/email.processor';

/** The notifications service's workers: the e-mail queue. */
@Module({ imports: [IdentityReadModule, PagesReadModule, LeadsReadModule], providers: [EmailProcessor] })
export class NotificationsWorkerModule {}
