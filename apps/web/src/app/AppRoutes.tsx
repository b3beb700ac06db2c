import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '../components/NotFoundPage';
import { AuthAlias, RequireAuth } from '../features/auth';
import { lazyPage } from '../lib/lazy-page';
import { AppLayout } from './layout/AppLayout';

// Every screen loads on first visit, so the signed-in dashboard's first load stays small. The home page
// comes prerendered: its HTML names its chunk for the browser to fetch at once (scripts/build.mjs). The
// forms bring the shared zod schemas, which other screens do not need.
const HomePage = lazyPage(() => import('../features/home/components/HomePage'), 'HomePage');
const AuthPage = lazyPage(() => import('../features/auth/components/AuthPage'), 'AuthPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/components/DashboardPage'), 'DashboardPage');
const VerifyEmailPage = lazyPage(() => import('../features/email-verification/components/VerifyEmailPage'), 'VerifyEmailPage');
const VerifyPromptPage = lazyPage(() => import('../features/email-verification/components/VerifyPromptPage'), 'VerifyPromptPage');
const ConfirmEmailPage = lazyPage(() => import('../features/settings/components/ConfirmEmailPage'), 'ConfirmEmailPage');
const ForgotPasswordPage = lazyPage(() => import('../features/password-reset/components/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('../features/password-reset/components/ResetPasswordPage'), 'ResetPasswordPage');
const TermsPage = lazyPage(() => import('../features/legal'), 'TermsPage');
const PrivacyPage = lazyPage(() => import('../features/legal'), 'PrivacyPage');
const SettingsPage = lazyPage(() => import('../features/settings/components/SettingsPage'), 'SettingsPage');
const StatsPage = lazyPage(() => import('../features/stats/components/StatsPage'), 'StatsPage');
const CheckoutPage = lazyPage(() => import('../features/billing/components/CheckoutPage'), 'CheckoutPage');
const CheckoutSuccessPage = lazyPage(() => import('../features/billing/components/CheckoutSuccessPage'), 'CheckoutSuccessPage');
// The editor brings tiptap and the landing page renderer: its own chunk, loaded on first visit.
const EditorPage = lazyPage(() => import('../features/editor/components/EditorPage'), 'EditorPage');

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="auth" element={<AuthPage />} />
        {/* Friendly addresses of the sign-in screen (the gateway redirects them too). */}
        <Route path="login" element={<AuthAlias />} />
        <Route path="register" element={<AuthAlias />} />
        <Route path="signup" element={<AuthAlias />} />
        <Route path="verify-email" element={<VerifyEmailPage />} />
        <Route path="verify-prompt" element={<VerifyPromptPage />} />
        {/* The link of an e-mail change, opened from the new address (signed in or not). */}
        <Route path="confirm-email" element={<ConfirmEmailPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route element={<RequireAuth />}>
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="settings" element={<SettingsPage />} />
          {/* /checkout?plan=pro starts Stripe Checkout, which comes back to /checkout/success?session_id=… */}
          <Route path="checkout" element={<CheckoutPage />} />
          <Route path="checkout/success" element={<CheckoutSuccessPage />} />
          {/* /editor/new creates a page, /editor/{id} edits one. */}
          <Route path="editor/:id" element={<EditorPage />} />
          <Route path="stats/:id" element={<StatsPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
