export { TrashCard } from './components/TrashCard';
