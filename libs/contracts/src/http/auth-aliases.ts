/**
 * Friendly addresses for the sign-in screen: `/login` opens its Login tab, `/register` and `/signup` its
 * Register tab. The gateway answers them with a redirect (302) and the SPA's router with the same target, so
 * a typed address, a link from elsewhere and in-app navigation all land on `/auth`. These paths are reserved
 * slugs (see RESERVED_SLUGS), so no landing page can take them.
 */
export const AUTH_ALIASES: Readonly<Record<string, 'login' | 'register'>> = {
  '/login': 'login',
  '/register': 'register',
  '/signup': 'register',
};

/**
 * Where an alias leads, or null when `path` is not one (compared without case and a trailing slash). The
 * query string is kept (a template chosen on the home page, `?template=photo-guide`, still reaches the
 * register form); only its `tab` is set by the alias: `tab=register` for the Register tab, none for Login.
 */
export function authAliasTarget(path: string, search = ''): string | null {
  const key = path.length > 1 ? path.toLowerCase().replace(/\/$/, '') : path.toLowerCase();
  const tab = Object.prototype.hasOwnProperty.call(AUTH_ALIASES, key) ? AUTH_ALIASES[key] : undefined;
  if (!tab) return null;
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  params.delete('tab');
  const rest = params.toString();
  const query = tab === 'register' ? (rest ? `tab=register&${rest}` : 'tab=register') : rest;
  return query ? `/auth?${query}` : '/auth';
}
