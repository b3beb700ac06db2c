import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';
import { appRoutes } from '../app/app-routes';
import { createQueryClient } from '../app/query-client';
import { routerOptions } from '../app/router-options';
import { seedSignedOut } from '../app/signed-out';

/**
 * The public screens prerendered at build time as real HTML (home, terms, privacy), so a signed-out
 * visitor sees them before any JavaScript runs; the SPA then hydrates the same markup (main.tsx).
 * The gateway answers them only to visitors without a session cookie.
 */
export const PRERENDERED_PATHS = ['/', '/terms', '/privacy'] as const;

/**
 * The app's markup at `path` for a signed-out visitor: the same providers, router and routes as the
 * browser (a memory router in place of the browser's), so hydration finds the same tree.
 *
 * `renderToString`, not a streaming prerender: React streams a large Suspense boundary as a fallback plus an
 * inline script that swaps the content in, and the app's policy runs no inline script. A lazy screen
 * (terms, privacy) suspends on the first pass, which starts loading it; the pass after it has loaded
 * renders it in full.
 */
export async function renderPath(path: string): Promise<string> {
  const queryClient = createQueryClient();
  seedSignedOut(queryClient);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const render = () =>
    renderToString(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} {...routerOptions} />
        </AppProviders>
      </StrictMode>,
    );
  for (let pass = 0; pass < 5; pass += 1) {
    const html = render();
    // React marks a boundary that showed its fallback with <!--$!--> (client-rendered) in a string render.
    if (!html.includes('<!--$!-->') && !html.includes('<!--$?-->')) return html;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} still shows a loading fallback after its lazy screens loaded`);
}
