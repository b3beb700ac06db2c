import { type ComponentType, lazy } from 'react';

/** A route component loaded on first visit from a module's named export. */
export function lazyPage<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
