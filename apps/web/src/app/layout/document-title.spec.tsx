import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@testing-library/react';
import { APP_SCREENS } from '@plink/contracts';
import { renderApp } from '../../test/render-app';
import { HOME_TITLE, documentTitleFor } from './document-title';

describe('document titles', () => {
  it('gives each screen its own title, and unknown paths "Page Not Found"', () => {
    expect(documentTitleFor('/', '')).toBe(HOME_TITLE);
    expect(documentTitleFor('/auth', '')).toBe('Log in · Plink');
    expect(documentTitleFor('/auth', '?tab=register')).toBe('Create your account · Plink');
    expect(documentTitleFor('/editor/12', '')).toBe('Page editor · Plink');
    expect(documentTitleFor('/a/b', '')).toBe('Page Not Found · Plink');
    const titles = APP_SCREENS.map((screen) => documentTitleFor(screen.replace(':id', '1'), ''));
    expect(titles.filter((title) => title.startsWith('Page Not Found'))).toEqual([]);
  });

  it('sets the tab title as the visitor moves through the app', async () => {
    renderApp('/terms');
    await waitFor(() => expect(document.title).toBe('Terms of Service · Plink'));
    const missing = renderApp('/no/such/page');
    await missing.findByText('404 Page Not Found');
    expect(document.title).toBe('Page Not Found · Plink');
  });

  it("matches the router: every route of the app is a screen the gateway answers 200, and no screen lacks a route", () => {
    // The gateway decides 200 or 404 from APP_SCREENS; the router draws the screens. Read the routes off the source.
    const source = readFileSync(join(__dirname, '..', 'AppRoutes.tsx'), 'utf8');
    const routes = ['/', ...[...source.matchAll(/<Route path="([^"*]+)"/g)].map((m) => `/${m[1]}`)];
    expect([...routes].sort()).toEqual([...APP_SCREENS].sort());
  });
});
