import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager, MikroORM, RequestContext, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { getLogger } from '../logging/logger';
import { OUTBOX_SCHEMA } from '../queue/outbox.entity';
import { assertMigrated, migrateServices } from './migrate';
import type { ServiceSchema } from './service-schema';

export const SERVICE_SCHEMAS = Symbol('SERVICE_SCHEMAS');

/** The ORM's own `pg` pool (`em.getConnection().getNativeClient()`), for hot paths that send raw SQL. */
export type NativePgPool = Awaited<ReturnType<PostgreSqlConnection['getNativeClient']>>;

/**
 * Opens the ORM over every entity of the given services (plus the platform's outbox), migrating them first
 * or, with MIGRATE_ON_START=false, checking that nothing is pending.
 */
export async function openOrm(config: AppConfig, schemas: ServiceSchema[]): Promise<MikroORM> {
  const all = [OUTBOX_SCHEMA, ...schemas];
  if (config.migrateOnStart) await migrateServices(config.databaseUrl, all);
  else await assertMigrated(config.databaseUrl, all);
  return MikroORM.init({
    clientUrl: config.databaseUrl,
    entities: all.flatMap((s) => s.entities),
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: config.databasePoolMax },
    // Every request and job must run in its own context (RequestContext / em.fork()).
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    logger: (message) => getLogger().debug({ context: 'mikro-orm' }, message),
  });
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
 * context; see {@link withOrmContext}).
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
