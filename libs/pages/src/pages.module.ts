import { PagesV1Controller } from './http/pages-v1.controller';
import { Module } from '@nestjs/common';
import { UploadUrls, UploadUsage } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Storage } from '@plink/storage';
import { AccountExportZipService } from './account-export/account-export-zip.service';
import { PageChanges } from './cache/page-changes';
import { PagesDemo } from './demo/demo-page';
import { PagesDirectory } from './directory/pages-directory';
import { PagesController } from './http/pages.controller';
import { EmbedController } from './embed/embed.controller';
import { PageEvents } from './model/page-events';
import { OwnersRepository } from './owners/owners.repository';
import { PagesRepository } from './model/pages.repository';
import { CachedPageAnswer } from './public-page/cached-page-answer';
import { PublicPageController } from './public-page/public-page.controller';
import { RenderedPages } from './public-page/rendered-pages';
import { CreatePageService } from './use-cases/create-page.service';
import { PageRemoval } from './trash/page-removal';
import { PurgeTrashService } from './trash/purge-trash.service';
import { TrashClock } from './trash/trash-clock';
import { TrashController } from './trash/trash.controller';
import { TrashService } from './trash/trash.service';
import { FlushViewsService } from './use-cases/flush-views.service';
import { OwnerPlanChangedService } from './use-cases/owner-plan-changed.service';
import { DeleteOwnerPagesHere, OwnerDeletedService } from './use-cases/owner-deleted.service';
import { OwnerProfileChangedService } from './use-cases/owner-profile-changed.service';
import { GetPageService } from './use-cases/get-page.service';
import { KeepPageLiveService } from './use-cases/keep-page-live.service';
import { RemovePausedLeadsService } from './use-cases/remove-paused-leads.service';
import { ListPagesService } from './use-cases/list-pages.service';
import { DailyViewsService } from './analytics/daily-views.service';
import { UpdatePageService } from './use-cases/update-page.service';
import { SendTestEmailService } from './use-cases/send-test-email.service';
import { PagesProcessor } from './processors/pages.processor';
import { PageTemplates } from './templates/page-templates';
import { TemplateImages } from './templates/template-images';
import { PendingViewsStore } from './views/pending-views.store';
import { ViewCounter } from './views/view-counter';
import { AnalyticsCounter } from './analytics/analytics-counter';
import { FlushAnalyticsService } from './analytics/flush-analytics.service';
import { PageAnalyticsRepository } from './analytics/page-analytics.repository';
import { PendingAnalyticsStore } from './analytics/pending-analytics.store';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';
import { WebhookSecretBox, WebhookUrlCheck } from './webhooks/webhook-endpoint';

/**
 * The pages service's read side, for other services: visitor pages (cached), owned pages, and view counting.
 * Owners' usernames and plans come from the service's own copy of them (pages.owners), never from identity.
 */
@Module({
  providers: [PagesRepository, OwnersRepository, PageChanges, PageEvents, PagesDirectory, ViewCounter, AnalyticsCounter, PageAnalyticsRepository, WebhookSecretBox],
  exports: [PagesRepository, OwnersRepository, PageChanges, PageEvents, PagesDirectory, ViewCounter, AnalyticsCounter, PageAnalyticsRepository, WebhookSecretBox],
})
export class PagesReadModule {}

/**
 * The pages calls and the server-rendered public page (mounted by the gateway). Needs a
 * `ConversionsReader` (the leads service's read module provides it) and the gateway's `SpaShell`.
 */
@Module({
  imports: [PagesReadModule],
  controllers: [PagesController, PagesV1Controller, PublicPageController, TrashController, EmbedController],
  providers: [
    { provide: UploadUrls, inject: [Storage, APP_CONFIG], useFactory: (storage: Storage, config: AppConfig) => new UploadUrls(storage, config) },
    RenderedPages,
    CachedPageAnswer,
    ListPagesService,
    DailyViewsService,
    GetPageService,
    CreatePageService,
    UpdatePageService,
    SendTestEmailService,
    TrashService,
    TrashClock,
    PageRemoval,
    KeepPageLiveService,
    WebhookUrlCheck,
    WebhookEndpointService,
    PageTemplates,
    TemplateImages,
    OwnerDeletedService,
    DeleteOwnerPagesHere,
  ],
})
export class PagesHttpModule {}

/**
 * Which uploads the pages show (any page's image fields, the owner's rich text): the pages service's answer
 * to the `UploadUsage` port of the contracts. The process that runs the uploads queue passes it to
 * `UploadsWorkerModule.forUsage` (the pages worker app, and the gateway when it runs the pages worker).
 */
@Module({
  providers: [PagesRepository, { provide: UploadUsage, useExisting: PagesRepository }],
  exports: [UploadUsage],
})
export class PagesUploadUsageModule {}

/**
 * The pages service's workers: the pages queue (moving buffered views into the database; when an owner's
 * plan changes, keeping it in the service's copy of its owners, pausing or un-pausing their pages and
 * dropping them from every replica's cache; removing the leads of paused pages when their date comes).
 * The pages worker app also runs the uploads queue beside it, told by {@link PagesUploadUsageModule}
 * which uploads the pages still show.
 */
@Module({
  providers: [
    PagesRepository,
    OwnersRepository,
    PendingViewsStore,
    FlushViewsService,
    PendingAnalyticsStore,
    PageAnalyticsRepository,
    FlushAnalyticsService,
    PageChanges,
    PageEvents,
    OwnerPlanChangedService,
    OwnerProfileChangedService,
    OwnerDeletedService,
    { provide: UploadUrls, inject: [Storage, APP_CONFIG], useFactory: (storage: Storage, config: AppConfig) => new UploadUrls(storage, config) },
    AccountExportZipService,
    RemovePausedLeadsService,
    WebhookSecretBox,
    WebhookEndpointService,
    { provide: UploadUrls, inject: [Storage, APP_CONFIG], useFactory: (storage: Storage, config: AppConfig) => new UploadUrls(storage, config) },
    TrashClock,
    PageRemoval,
    PurgeTrashService,
    PagesProcessor,
  ],
})
export class PagesWorkerModule {}

/**
 * The pages service's part of the demo seed (the demo creator's sample page, through the create use case),
 * composed by the gateway in development only.
 */
@Module({
  imports: [PagesReadModule],
  providers: [CreatePageService, WebhookUrlCheck, PagesDemo],
  exports: [PagesDemo],
})
export class PagesDemoModule {}
