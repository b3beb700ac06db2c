export { ApiTokensCard } from './components/ApiTokensCard';
export { AutomationsCard } from './components/AutomationsCard';
