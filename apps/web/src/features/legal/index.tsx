import { LegalPage } from './components/LegalPage';
import { PRIVACY } from './content/privacy';
import { TERMS } from './content/terms';

export const TermsPage = () => <LegalPage document={TERMS} />;
export const PrivacyPage = () => <LegalPage document={PRIVACY} />;
