export { PAGES_SCHEMA } from './pages.schema';
export { PagesDemoModule, PagesHttpModule, PagesReadModule, PagesUploadUsageModule, PagesWorkerModule } from './pages.module';
export { PagesDirectory, type VisitorPage, type OwnedPage, type WebhookTarget } from './directory/pages-directory';
export { ConversionsReader } from './model/conversions-reader';
export { ViewCounter } from './views/view-counter';
export { OwnerPlanChangedService } from './use-cases/owner-plan-changed.service';
export { WebhookSecretBox, type SecretBox } from './webhooks/webhook-secret-box';
export { DEMO_PAGE, DEMO_PAGE_VIEWS, PagesDemo } from './demo/demo-page';
export { PageAnalyticsRepository } from './analytics/page-analytics.repository';
