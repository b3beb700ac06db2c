export { StatsPage } from './components/StatsPage';
