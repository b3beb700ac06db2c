import type { EntityManager } from '@mikro-orm/postgresql';

/** A unit of work publishes its events within moments; a version kept longer would be reused by a later change. */
const KEEP_MS = 1_000;
const versions = new WeakMap<EntityManager, { version: number; at: number }>();

/**
 * The version of the changes made in `em`'s unit of work (a transaction, or the request's or job's context):
 * the time of the first event it publishes, shared by the events it publishes right after. A page's
 * `page.changed` and `webhook-endpoint.changed` of one change then carry the same version, so a delivery that
 * saw the page's facts at version V can tell whether the notifications service's copy of the endpoint has
 * caught up (its version ≥ V) or not yet. Changes of one page carry increasing versions (one clock; replicas
 * whose clocks differ by more than the time between two changes of one page could order them wrongly).
 */
export function changeVersion(em: EntityManager): number {
  // The injected EntityManager is global: its context is the request's or job's own (a fork in a transaction is its own).
  const unit = em.getContext(false);
  const now = Date.now();
  const kept = versions.get(unit);
  if (kept && now - kept.at < KEEP_MS) return kept.version;
  const version = Math.max(now, kept ? kept.version + 1 : 0);
  versions.set(unit, { version, at: now });
  return version;
}
