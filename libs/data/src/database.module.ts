import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager, EntitySchema, MikroORM, RequestContext, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { getLogger } from '@plink/observability';
import { OUTBOX_SCHEMA } from './outbox.entity';
import { assertMigrated, migrateServices } from './migrate';
import { currentEntityManager } from './request-orm-context';
import type { ServiceSchema } from './service-schema';

export const SERVICE_SCHEMAS = Symbol('SERVICE_SCHEMAS');

/** The ORM's own `pg` pool (`em.getConnection().getNativeClient()`), for hot paths that send raw SQL. */
export type NativePgPool = Awaited<ReturnType<PostgreSqlConnection['getNativeClient']>>;

/**
 * Asks the ORM for its `pg` pool once and keeps the answer; after a failure (not connected yet, database away)
 * the next call asks again.
 */
export function nativePoolOf(em: () => EntityManager): () => Promise<NativePgPool> {
  let pool: Promise<NativePgPool> | undefined;
  return () =>
    (pool ??= em()
      .getConnection()
      .getNativeClient()
      .catch((err: unknown) => {
        pool = undefined;
        throw err;
      }));
}

/**
 * Opens the ORM over every entity of the given services (plus the platform's outbox), migrating them first
 * or, with MIGRATE_ON_START=false, checking that nothing is pending. The process then knows those schemas
 * only: asking the ORM for an entity of any other schema fails at once with {@link ForeignSchemaError}.
 */
export async function openOrm(config: AppConfig, schemas: ServiceSchema[]): Promise<MikroORM> {
  const all = [OUTBOX_SCHEMA, ...schemas.filter((s) => s.service !== OUTBOX_SCHEMA.service)];
  if (config.migrateOnStart) await migrateServices(config.databaseUrl, all);
  else await assertMigrated(config.databaseUrl, all);
  const orm = await MikroORM.init({
    clientUrl: config.databaseUrl,
    entities: all.flatMap((s) => s.entities),
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: config.databasePoolMax },
    // Every request and job must run in its own context (RequestContext / em.fork()).
    allowGlobalContext: false,
    context: currentEntityManager,
    forceUtcTimezone: true,
    debug: false,
    logger: (message) => getLogger().debug({ context: 'mikro-orm' }, message),
  });
  try {
    keepToSchemas(orm, all.map((s) => s.service));
  } catch (err) {
    await orm.close(true);
    throw err;
  }
  return orm;
}

/**
 * A process asked the ORM for an entity of a schema it did not open: a worker reads another service's data
 * from its jobs' payloads or from a read model of its own, never from that service's tables.
 */
export class ForeignSchemaError extends Error {
  override name = 'ForeignSchemaError';
}

function foreignSchemaError(entity: string, schema: string, opened: string[]): ForeignSchemaError {
  return new ForeignSchemaError(
    `Entity ${entity} belongs to the "${schema}" schema, which this process does not open (it opens ${opened.map((s) => `"${s}"`).join(', ')}). ` +
      "A service reads another service's data from its jobs' payloads or from a read model of its own, never from that service's tables.",
  );
}

/**
 * Holds the ORM to the opened schemas: every entity it discovered must live in one of them (an entity of
 * another schema pulled in by a relation stops the start), and a later lookup of an entity of another
 * schema (another service's repository, reached through its module) throws a {@link ForeignSchemaError}
 * naming it, where MikroORM would fail with an unclear error.
 */
function keepToSchemas(orm: MikroORM, opened: string[]): void {
  const metadata = orm.getMetadata();
  for (const meta of metadata) {
    if (meta.schema && !opened.includes(meta.schema)) throw foreignSchemaError(meta.className, meta.schema, opened);
  }
  const find = metadata.find.bind(metadata);
  metadata.find = ((entityName: Parameters<typeof find>[0]) => {
    const meta = find(entityName);
    if (meta && metadata.getAll().get(meta.class) === meta) return meta;
    const schema = EntitySchema.is(entityName) ? entityName : typeof entityName === 'function' ? EntitySchema.REGISTRY.get(entityName) : undefined;
    const foreign = schema?.meta.schema;
    if (schema && foreign && !opened.includes(foreign)) throw foreignSchemaError(schema.meta.className, foreign, opened);
    return meta;
  }) as typeof metadata.find;
}

class OrmCloser implements OnApplicationShutdown {
  constructor(@Inject(MikroORM) private readonly orm: MikroORM) {}
  async onApplicationShutdown() {
    await this.orm.close();
  }
}

/**
 * The database of a Plink process: migrations of the listed services applied at start, one
 * MikroORM instance, and its EntityManager (which resolves to the current request's or job's
 * context; see {@link withOrmContext} and runWithRequestOrmContext).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(schemas: ServiceSchema[]): DynamicModule {
    const unique = [...new Map(schemas.map((s) => [s.service, s])).values()];
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        { provide: SERVICE_SCHEMAS, useValue: unique },
        { provide: MikroORM, inject: [APP_CONFIG], useFactory: (config: AppConfig) => openOrm(config, unique) },
        { provide: EntityManager, inject: [MikroORM], useFactory: (orm: MikroORM) => orm.em },
        OrmCloser,
      ],
      exports: [MikroORM, EntityManager, SERVICE_SCHEMAS],
    };
  }
}

/** Runs `fn` in a fresh ORM context (a job, a timer, a script). */
export function withOrmContext<T>(orm: MikroORM, fn: () => Promise<T>): Promise<T> {
  return RequestContext.create(orm.em, fn);
}
