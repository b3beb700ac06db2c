import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TOAST_DURATION } from '../lib/toast';
import { theme } from './theme';

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
      <Notifications position="top-center" limit={1} autoClose={TOAST_DURATION.default} containerWidth={420} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
