import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './AppRoutes';
import { createQueryClient } from './query-client';
import { routerOptions } from './router-options';

const queryClient = createQueryClient();

// A data router (one splat route around the app's <Routes>): it is what lets the editor ask before
// leaving with unsaved changes (useBlocker).
const router = createBrowserRouter([{ path: '*', element: <AppRoutes /> }]);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} {...routerOptions} />
    </AppProviders>
  );
}
