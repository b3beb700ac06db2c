export { DeleteAccountCard } from './components/DeleteAccountCard';
