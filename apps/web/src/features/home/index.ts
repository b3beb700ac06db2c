export { HomePage } from './components/HomePage';
export { SiteFooter } from './components/SiteFooter';
