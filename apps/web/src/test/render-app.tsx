import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';
import { AppRoutes } from '../app/AppRoutes';
import { createQueryClient } from '../app/query-client';
import { routerOptions } from '../app/router-options';

function CurrentLocation() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

interface RenderAppOptions {
  /** Set when the test drives time with jest fake timers. */
  fakeTimers?: boolean;
}

/** Renders the whole app (providers, routes, StrictMode) at `url`, as main.tsx does with a real router. */
export function renderApp(url: string, { fakeTimers = false }: RenderAppOptions = {}) {
  const queryClient = createQueryClient();
  // No pause between keystrokes: typing stays fast, and answers arrive while the test awaits findBy*.
  const user = userEvent.setup({ delay: null, ...(fakeTimers && { advanceTimers: jest.advanceTimersByTime }) });
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <AppRoutes />
            <CurrentLocation />
          </>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  const utils = render(
    <StrictMode>
      <AppProviders queryClient={queryClient} mantineEnv="test">
        <RouterProvider router={router} {...routerOptions} />
      </AppProviders>
    </StrictMode>,
  );
  const location = () => utils.getByTestId('location').textContent;
  return { user, queryClient, location, router, ...utils };
}

/** The toast with this title (toasts are Mantine notifications, role "alert"). */
export async function findToast(title: string): Promise<HTMLElement> {
  const titleElement = await screen.findByText(title, { selector: '.mantine-Notification-title' });
  const toast = titleElement.closest<HTMLElement>('[role="alert"]');
  if (!toast) throw new Error(`The toast title "${title}" is outside a notification`);
  return toast;
}
