import { appScreenOf } from './app-screens';

describe('appScreenOf', () => {
  it('names the screen of an app path, in any case and with a trailing slash', () => {
    expect(appScreenOf('/')).toBe('/');
    expect(appScreenOf('/dashboard')).toBe('/dashboard');
    expect(appScreenOf('/Dashboard/')).toBe('/dashboard');
    expect(appScreenOf('/checkout/success')).toBe('/checkout/success');
    expect(appScreenOf('/editor/new')).toBe('/editor/:id');
    expect(appScreenOf('/stats/42')).toBe('/stats/:id');
  });

  it('has no screen for other paths', () => {
    for (const path of ['/a/b', '/dashboard/x', '/editor', '/editor/1/2', '/stats/', '/admin', '/checkout/cancel', '//', '/terms.html']) {
      expect({ path, screen: appScreenOf(path) }).toEqual({ path, screen: undefined });
    }
  });
});
