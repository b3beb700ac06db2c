/**
 * The web app's screens, as paths (`:id` stands for one path segment). The gateway answers these with the
 * app's document and status 200, and any other path it hands to the app with the same document and status
 * 404 (the app then draws its "Page Not Found" screen), so a mistyped address is a real 404 to browsers,
 * crawlers and link checkers. The web app's router holds the same list (a test there checks it).
 */
export const APP_SCREENS = [
  '/',
  '/auth',
  '/login',
  '/register',
  '/signup',
  '/verify-email',
  '/verify-prompt',
  '/confirm-email',
  '/forgot-password',
  '/reset-password',
  '/terms',
  '/privacy',
  '/dashboard',
  '/settings',
  '/checkout',
  '/checkout/success',
  '/editor/:id',
  '/stats/:id',
] as const;

export type AppScreen = (typeof APP_SCREENS)[number];

const SCREEN_PATTERNS = APP_SCREENS.map((screen) => ({
  screen,
  // As the app's router matches: any case, an optional trailing slash, `:id` one non-empty segment.
  pattern: new RegExp(`^${screen.replace(/:id/g, '[^/]+').replace(/\/$/, '')}/?$`, 'i'),
}));

/** The screen a path (without its query) shows, or undefined when the app has none there. */
export function appScreenOf(path: string): AppScreen | undefined {
  return SCREEN_PATTERNS.find(({ pattern }) => pattern.test(path))?.screen;
}
