export { SiteFooter } from './components/SiteFooter';
