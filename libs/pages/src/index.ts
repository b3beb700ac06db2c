export { PAGES_SCHEMA } from './pages.schema';
export { PagesHttpModule, PagesReadModule, PagesWorkerModule } from './pages.module';
export { PagesDirectory, type VisitorPage, type OwnedPage, type PageSummary, type WebhookTarget } from './directory/pages-directory';
export { ConversionsReader } from './pages/conversions-reader';
export { ViewCounter } from './views/view-counter';
export { OwnerPlanChangedService } from './use-cases/owner-plan-changed.service';
