import { Module } from '@nestjs/common';
import { IdentityReadModule } from '@plink/identity';
import { PageChanges } from './cache/page-changes';
import { PagesDirectory } from './directory/pages-directory';
import { PagesController } from './http/pages.controller';
import { RouteBodyLimits } from './http/route-body-limit';
import { ExampleImages } from './examples/example-images';
import { PagesRepository } from './pages/pages.repository';
import { PublicPageRoutes } from './public-page/public-page.routes';
import { RenderedPages } from './public-page/rendered-pages';
import { CreatePageService } from './use-cases/create-page.service';
import { DeletePageService } from './use-cases/delete-page.service';
import { FlushViewsService } from './use-cases/flush-views.service';
import { OwnerPlanChangedService } from './use-cases/owner-plan-changed.service';
import { GetPageService } from './use-cases/get-page.service';
import { KeepPageLiveService } from './use-cases/keep-page-live.service';
import { RemovePausedLeadsService } from './use-cases/remove-paused-leads.service';
import { ListPagesService } from './use-cases/list-pages.service';
import { UpdatePageService } from './use-cases/update-page.service';
import { DeleteUploadsService } from './uploads/delete-uploads.service';
import { ProcessImageService } from './uploads/process-image.service';
import { SweepUploadsScheduler } from './uploads/sweep-uploads.scheduler';
import { SweepUploadsService } from './uploads/sweep-uploads.service';
import { UploadImageRoute } from './uploads/upload-image.route';
import { UploadImageService } from './uploads/upload-image.service';
import { UploadUrls } from './uploads/upload-urls';
import { UploadsProcessor } from './uploads/uploads.processor';
import { FlushViewsScheduler } from './views/flush-views.scheduler';
import { PagesProcessor } from './views/pages.processor';
import { PendingViewsStore } from './views/pending-views.store';
import { ViewCounter } from './views/view-counter';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';
import { WebhookSecretBox, WebhookUrlCheck } from './webhooks/webhook-endpoint';

/** The pages service's read side, for other services: visitor pages (cached), owned pages, and view counting. */
@Module({
  imports: [IdentityReadModule],
  providers: [PagesRepository, PageChanges, PagesDirectory, ViewCounter, WebhookSecretBox],
  exports: [PagesRepository, PageChanges, PagesDirectory, ViewCounter, WebhookSecretBox],
})
export class PagesReadModule {}

/**
 * The pages calls (mounted by the gateway), the image upload (a plain Fastify route, see UploadImageRoute)
 * and the server-rendered public page (plain Fastify routes, see PublicPageRoutes). Needs a
 * `ConversionsReader` (the leads service's read module provides it) and the
 * gateway's `SpaShell`.
 */
@Module({
  imports: [IdentityReadModule, PagesReadModule],
  controllers: [PagesController],
  providers: [
    RouteBodyLimits,
    RenderedPages,
    PublicPageRoutes,
    ListPagesService,
    GetPageService,
    CreatePageService,
    UpdatePageService,
    DeletePageService,
    KeepPageLiveService,
    UploadUrls,
    ProcessImageService,
    UploadImageService,
    UploadImageRoute,
    WebhookUrlCheck,
    WebhookEndpointService,
    ExampleImages,
  ],
})
export class PagesHttpModule {}

/**
 * The pages service's workers: the pages queue (moving buffered views into the database; when an owner's
 * plan changes, pausing or un-pausing their pages and dropping them from every replica's cache; removing
 * the leads of paused pages when their date comes) and the uploads
 * queue (removing images no page shows any more, and every 6 hours the uploads never saved to a page).
 */
@Module({
  imports: [IdentityReadModule],
  providers: [
    PagesRepository,
    PendingViewsStore,
    FlushViewsService,
    PageChanges,
    OwnerPlanChangedService,
    RemovePausedLeadsService,
    WebhookSecretBox,
    WebhookEndpointService,
    PagesProcessor,
    FlushViewsScheduler,
    UploadUrls,
    DeleteUploadsService,
    SweepUploadsService,
    SweepUploadsScheduler,
    UploadsProcessor,
  ],
})
export class PagesWorkerModule {}
