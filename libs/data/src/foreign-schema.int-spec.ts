import { defineEntity, p } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestEnvironment, type TestEnvironment } from '@plink/testing';
import { loadConfig } from '@plink/config';
import { OutboxMessage } from './outbox.entity';
import { ForeignSchemaError, openOrm, withOrmContext } from './database.module';
import type { ServiceSchema } from './service-schema';

// Two services' tables, as a service lib defines them (each entity names its schema).
const ParcelSchema = defineEntity({
  name: 'Parcel',
  schema: 'depot',
  tableName: 'parcels',
  properties: { id: p.integer().primary(), label: p.string() },
});
class Parcel extends ParcelSchema.class {}
ParcelSchema.setClass(Parcel);

const CourierSchema = defineEntity({
  name: 'Courier',
  schema: 'couriers',
  tableName: 'couriers',
  properties: { id: p.integer().primary(), name: p.string() },
});
class Courier extends CourierSchema.class {}
CourierSchema.setClass(Courier);

const DEPOT: ServiceSchema = { service: 'depot', entities: [ParcelSchema], migrations: [] };

/** A worker opens its own schema (and the outbox) only; reaching for another service's table fails at once, by name. */
describe('a process that opens some schemas only (real PostgreSQL)', () => {
  let env: TestEnvironment;
  let orm: MikroORM;

  beforeAll(async () => {
    env = await createTestEnvironment();
    orm = await openOrm(loadConfig(env.vars), [DEPOT]);
    await orm.em.getConnection().execute('create table depot.parcels (id int primary key, label text not null)');
  });

  afterAll(async () => {
    await orm?.close();
    await env?.cleanup();
  });

  it('reads and writes its own schema and the outbox', async () => {
    await withOrmContext(orm, async () => {
      orm.em.create(Parcel, { id: 1, label: 'books' });
      await orm.em.flush();
      expect((await orm.em.fork().findOneOrFail(ParcelSchema, { id: 1 })).label).toBe('books');
      expect(await orm.em.count(OutboxMessage, {})).toBe(0);
    });
  });

  it("refuses another schema's entity with a message naming it and the schemas the process opens", async () => {
    const expected = /^Entity Courier belongs to the "couriers" schema, which this process does not open \(it opens "platform", "depot"\)\. A service reads another service's data from its jobs' payloads or from a read model of its own/;
    await withOrmContext(orm, async () => {
      for (const entity of [Courier, CourierSchema]) {
        const attempt = orm.em.findOne(entity, { id: 1 });
        await expect(attempt).rejects.toBeInstanceOf(ForeignSchemaError);
        await expect(orm.em.findOne(entity, { id: 1 })).rejects.toThrow(expected);
      }
      expect(() => orm.em.create(Courier, { id: 1, name: 'ann' })).toThrow(expected);
    });
  });

  it('does not start over an entity of a schema it did not list', async () => {
    const mixed: ServiceSchema = { service: 'depot', entities: [ParcelSchema, CourierSchema], migrations: [] };
    await expect(openOrm(loadConfig(env.vars), [mixed])).rejects.toThrow(
      /^Entity Courier belongs to the "couriers" schema, which this process does not open \(it opens "platform", "depot"\)/,
    );
  });
});
