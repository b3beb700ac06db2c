import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/** The toast variants mapped to Mantine colours (`undefined` is the theme's primary colour). */
const VARIANT_COLORS = {
  default: undefined,
  destructive: 'red',
  success: 'green',
  warning: 'yellow',
  info: 'blue',
} as const;

export type ToastVariant = keyof typeof VARIANT_COLORS;

/** How long each toast shows, in milliseconds. */
export const TOAST_DURATION = {
  default: 5_000,
  copy: 2_000,
  emailVerified: 6_000,
  inactiveSubscription: 8_000,
  /** A deleted page's toast, with its Undo button. */
  undo: 8_000,
} as const;

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  duration?: number;
}

/** Shows one toast at a time: a new toast replaces the current one. */
export function toast({
  title,
  description,
  variant = 'default',
  duration = TOAST_DURATION.default,
}: ToastOptions) {
  notifications.clean();
  return notifications.show({
    title,
    message: description,
    color: VARIANT_COLORS[variant],
    autoClose: duration,
    'data-variant': variant,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Closes the toast showing (its news is told elsewhere now, e.g. by a dialog). */
export function clearToasts() {
  notifications.clean();
}
