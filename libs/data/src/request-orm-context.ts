import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestContext, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';

/**
 * The ORM context of an HTTP request, forked on first use: a request that never touches the database (a
 * cached visitor page, a health probe) pays nothing for it.
 */
class LazyFork {
  private fork?: EntityManager;
  private forking = false;

  constructor(private readonly root: EntityManager) {}

  get(name: string): EntityManager | undefined {
    if (name !== this.root.name) return undefined;
    // While the fork is being built, MikroORM may ask for the context again: answer "none" then.
    if (!this.fork && !this.forking) {
      this.forking = true;
      try {
        this.fork = this.root.fork({ useContext: true, disableContextResolution: true });
      } finally {
        this.forking = false;
      }
    }
    return this.fork;
  }
}

const requests = new AsyncLocalStorage<LazyFork>();

/** Runs `fn` (an HTTP request) with its own ORM context, forked only if the request uses the database. */
export function runWithRequestOrmContext<T>(orm: MikroORM, fn: () => T): T {
  return requests.run(new LazyFork(orm.em), fn);
}

/**
 * The ORM's `context` setting: which EntityManager `em` stands for here. A context entered with
 * RequestContext.create (a job, a timer, {@link withOrmContext}) comes first, then the current HTTP
 * request's; outside both, none (the ORM refuses its global context).
 */
export function currentEntityManager(name: string): ReturnType<typeof RequestContext.getEntityManager> {
  return RequestContext.getEntityManager(name) ?? requests.getStore()?.get(name);
}
