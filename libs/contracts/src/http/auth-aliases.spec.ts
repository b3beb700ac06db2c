import { AUTH_ALIASES, authAliasTarget } from './auth-aliases';
import { isReservedSlug } from './pages';

describe('authAliasTarget', () => {
  it('sends /login to the Login tab and /register and /signup to the Register tab', () => {
    expect(authAliasTarget('/login')).toBe('/auth');
    expect(authAliasTarget('/register')).toBe('/auth?tab=register');
    expect(authAliasTarget('/signup')).toBe('/auth?tab=register');
  });

  it('keeps the query string, with the tab the alias names', () => {
    expect(authAliasTarget('/signup', '?template=photo-guide')).toBe('/auth?tab=register&template=photo-guide');
    expect(authAliasTarget('/login', '?template=photo-guide')).toBe('/auth?template=photo-guide');
    expect(authAliasTarget('/login', '?tab=register&x=1')).toBe('/auth?x=1');
    expect(authAliasTarget('/register', 'tab=login&tab=x')).toBe('/auth?tab=register');
  });

  it('ignores case and one trailing slash', () => {
    expect(authAliasTarget('/Login/')).toBe('/auth');
    expect(authAliasTarget('/SIGNUP')).toBe('/auth?tab=register');
  });

  it('answers null for any other path', () => {
    for (const path of ['/', '/auth', '/logins', '/login/x', '/constructor', '/__proto__', '']) {
      expect(authAliasTarget(path)).toBeNull();
    }
  });

  it('names only paths no landing page can take', () => {
    for (const path of Object.keys(AUTH_ALIASES)) expect(isReservedSlug(path.slice(1))).toBe(true);
  });
});
