export { VerifyEmailPage } from './components/VerifyEmailPage';
export { VerifyPromptPage } from './components/VerifyPromptPage';
