import { loadConfig } from '@plink/config';
import { appSecurityHeaders, classifyRoute } from './security-headers';

describe('classifyRoute (the two-host split)', () => {
  it('knows landing pages, what both hosts serve, and the app, by the matched route and its decoded parameters', () => {
    const page: Array<[string, Record<string, string>]> = [
      ['/:slug', { slug: 'my-page' }],
      ['/:slug', { slug: 'My-Page' }],
      ['/p/:slug', { slug: 'my-page' }],
      ['/p/:username/:slug', { username: 'alice', slug: 'my-page' }],
      ['/p/*', { '*': 'x/y' }],
      ['/confirm/:token', { token: 'abc' }], // the double opt-in link's page
    ];
    for (const [route, params] of page) expect([route, params, classifyRoute(route, params)]).toEqual([route, params, 'page']);
    for (const route of ['/health', '/health/live', '/health/ready', '/favicon.ico', '/fonts/:file', '/uploads/*', '/api/page/:slug/submit', '/api/confirm/:token'])
      expect([route, classifyRoute(route, {})]).toEqual([route, 'shared']);
    const app: Array<[string | undefined, Record<string, string>]> = [
      ['/', {}],
      ['/:slug', { slug: 'dashboard' }], // reserved: the SPA's screen
      ['/:slug', { slug: 'my-page/' }], // an escaped trailing slash (`%2F`) decodes into the segment: never a slug
      ['/:slug', { slug: '%6dy-page' }], // a double escape decodes once
      ['/:slug', { slug: 'robots.txt' }],
      ['/api/user', {}],
      ['/api/pages/:id/export', {}],
      ['/*', { '*': 'editor/12' }],
      [undefined, {}], // no route: the app's 404
    ];
    for (const [route, params] of app) expect([route, params, classifyRoute(route, params)]).toEqual([route, params, 'app']);
  });
});

describe('appSecurityHeaders', () => {
  const base = { DATABASE_URL: 'postgres://plink@db/plink' };

  it('is helmet’s set: strict scripts, no framing, no HSTS over http', () => {
    const headers = appSecurityHeaders(loadConfig(base));
    expect(headers['content-security-policy']).toContain("script-src 'self';");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS when the app is served over https', () => {
    expect(appSecurityHeaders(loadConfig({ ...base, APP_ORIGIN: 'https://app.plink.example' }))['strict-transport-security']).toBe('max-age=31536000');
  });
});
