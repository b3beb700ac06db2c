import type { EntityManager } from '@mikro-orm/postgresql';

const versions = new WeakMap<EntityManager, number>();

/**
 * The version of the changes made with `em` (a transaction, or a request's unit of work): the time of the
 * first event it publishes, shared by every event it publishes after. A page's `page.changed` and
 * `webhook-endpoint.changed` of one change then carry the same version, so a delivery that saw the page's
 * facts at version V can tell whether the notifications service's copy of the endpoint has caught up (its
 * version ≥ V) or not yet. Changes of one page carry increasing versions (one clock; replicas whose clocks
 * differ by more than the time between two changes of one page could order them wrongly).
 */
export function changeVersion(em: EntityManager): number {
  let version = versions.get(em);
  if (version === undefined) {
    version = Date.now();
    versions.set(em, version);
  }
  return version;
}
