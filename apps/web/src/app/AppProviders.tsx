import { MantineProvider } from '@mantine/core';
import { type NotificationsProps, useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, lazy, useState } from 'react';
import { TOAST_DURATION } from '../lib/toast';
import { theme } from './theme';

/** Mantine's toast container (with its transitions and swipe handling) loads with the first toast. */
const Notifications = lazy(() => import('./notifications-container').then((module) => ({ default: module.Notifications })));

/**
 * Toasts are shown through Mantine's notifications store (lib/toast.ts), which is small; the container that
 * draws them joins when the store first holds one, and then shows it.
 */
function DeferredNotifications(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  ) : null;
}

/** Everything but the router, so tests can wrap the same providers around a MemoryRouter. */
interface AppProvidersProps {
  queryClient: QueryClient;
  /** 'test' turns Mantine's transitions and portals off (tests). */
  mantineEnv?: 'default' | 'test';
  children: ReactNode;
}

export function AppProviders({ queryClient, mantineEnv, children }: AppProvidersProps) {
  return (
    <MantineProvider theme={theme} env={mantineEnv}>
      <DeferredNotifications position="top-center" limit={1} autoClose={TOAST_DURATION.default} containerWidth={420} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
