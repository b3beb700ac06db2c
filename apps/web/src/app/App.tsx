import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './AppRoutes';
import { createQueryClient } from './query-client';
import { routerOptions } from './router-options';

const queryClient = createQueryClient();

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter {...routerOptions}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
