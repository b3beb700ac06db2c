import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { appRoutes } from './app-routes';
import { createQueryClient } from './query-client';
import { routerOptions } from './router-options';
import { seedSignedOut } from './signed-out';

const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes);

/** Before hydrating prerendered HTML: the gateway sends it only to signed-out visitors. */
export function startSignedOut(): void {
  seedSignedOut(queryClient);
}

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} {...routerOptions} />
    </AppProviders>
  );
}
