import { loadConfig } from '../config/config.schema';
import { appSecurityHeaders, classifyPath } from './security-headers';

describe('classifyPath (the two-host split)', () => {
  it('knows landing pages, what both hosts serve, and the app', () => {
    for (const path of ['/my-page', '/My-Page', '/my-page/', '/p/my-page', '/p/alice/my-page']) expect([path, classifyPath(path)]).toEqual([path, 'page']);
    for (const path of ['/health', '/favicon.ico', '/fonts/inter-latin-400-normal.woff2', '/uploads/u1/a.png', '/api/page/my-page/submit'])
      expect([path, classifyPath(path)]).toEqual([path, 'shared']);
    for (const path of ['/', '/dashboard', '/editor/12', '/verify-email', '/api/user', '/api/pages/1/export', '/api', '/assets/index.js', '/robots.txt', '/favicon.svg'])
      expect([path, classifyPath(path)]).toEqual([path, 'app']);
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
