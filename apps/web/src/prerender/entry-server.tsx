import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
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
 * browser (a memory router in place of the browser's), so hydration finds the same tree. Waits for the
 * lazy screens (terms, privacy) to load.
 */
export async function renderPath(path: string): Promise<string> {
  const queryClient = createQueryClient();
  seedSignedOut(queryClient);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} {...routerOptions} />
      </AppProviders>
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
