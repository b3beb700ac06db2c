import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * A value only the browser knows (the host it was reached on…): `prerendered` while React hydrates HTML
 * prerendered at build time (so the markup matches), the browser's value right after and on every
 * client-side render.
 */
export function useBrowserValue<T extends string | number>(browser: () => T, prerendered: T): T {
  return useSyncExternalStore(never, browser, () => prerendered);
}
