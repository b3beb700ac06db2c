import { absolutePageUrl, displayPageUrl, publicOrigin, publicPagePath } from './pages.api';

/** jsdom's page is http://localhost/ (jest's default test URL). */
describe('page links', () => {
  afterEach(() => document.head.querySelectorAll('meta[name="plink-public-origin"]').forEach((m) => m.remove()));

  const named = (content: string) => {
    const meta = document.createElement('meta');
    meta.name = 'plink-public-origin';
    meta.content = content;
    document.head.appendChild(meta);
  };

  it('name the app’s own host when the server names no other', () => {
    expect(publicOrigin()).toBe(window.location.origin);
    expect(publicPagePath('my-page')).toBe('/my-page');
    expect(displayPageUrl('my-page')).toBe(`${window.location.host}/my-page`);
    expect(absolutePageUrl('my-page')).toBe(`${window.location.origin}/my-page`);
  });

  it('name the landing pages’ host when the shell carries PUBLIC_ORIGIN', () => {
    named('https://plink.page');
    expect(publicPagePath('my-page')).toBe('https://plink.page/my-page');
    expect(displayPageUrl('my-page')).toBe('plink.page/my-page');
    expect(absolutePageUrl('my-page')).toBe('https://plink.page/my-page');
  });

  it('ignore a value that is not an origin', () => {
    named('javascript:alert(1)');
    expect(absolutePageUrl('x')).toBe(`${window.location.origin}/x`);
  });
});
