import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { appScreenOf, type AppScreen } from '@plink/contracts';

/** The browser tab's title on the home screen (also index.html's, before any script runs). */
export const HOME_TITLE = 'Plink: Beautiful landing pages in seconds';

/**
 * Every screen's title in the browser tab, history and bookmarks (and the first thing a screen reader
 * announces after a navigation). Keyed by the app's screens: a screen added without a title fails to compile.
 */
const SCREEN_TITLES: Record<AppScreen, string | ((search: URLSearchParams) => string)> = {
  '/': HOME_TITLE,
  '/auth': (search) => (search.get('tab') === 'register' ? 'Create your account' : 'Log in'),
  '/login': 'Log in',
  '/register': 'Create your account',
  '/signup': 'Create your account',
  '/verify-email': 'Verify your e-mail',
  '/verify-prompt': 'Verify your e-mail',
  '/confirm-email': 'Confirm your new e-mail',
  '/forgot-password': 'Forgot password',
  '/reset-password': 'Choose a new password',
  '/terms': 'Terms of Service',
  '/privacy': 'Privacy Policy',
  '/dashboard': 'Dashboard',
  '/settings': 'Settings',
  '/checkout': 'Upgrade to Pro',
  '/checkout/success': 'Welcome to Pro',
  '/editor/:id': 'Page editor',
  '/stats/:id': 'Page stats',
};

export function documentTitleFor(pathname: string, search: string): string {
  const screen = appScreenOf(pathname);
  if (screen === '/') return HOME_TITLE;
  const title = screen ? SCREEN_TITLES[screen] : 'Page Not Found';
  return `${typeof title === 'function' ? title(new URLSearchParams(search)) : title} · Plink`;
}

/** Keeps the document's title on the screen shown. */
export function useDocumentTitle(): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    document.title = documentTitleFor(pathname, search);
  }, [pathname, search]);
}
