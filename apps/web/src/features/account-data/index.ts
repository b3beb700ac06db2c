export { DeleteAccountCard } from './components/DeleteAccountCard';
export { ExportDataCard } from './components/ExportDataCard';
