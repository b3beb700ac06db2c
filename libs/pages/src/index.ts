export { PAGES_SCHEMA, PagesWorkerModule } from './pages.module';
