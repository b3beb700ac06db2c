import { defineEntity, p } from '@mikro-orm/core';
import type { ServiceSchema } from './service-schema';
import { Migration } from '@mikro-orm/migrations';

/**
 * A job recorded in the same transaction as the database change it follows, relayed to BullMQ
 * by the Outbox service (outbox.service.ts). A Redis outage delays such a job; it never loses it.
 */
export const OutboxMessageSchema = defineEntity({
  name: 'OutboxMessage',
  schema: 'platform',
  tableName: 'outbox',
  properties: {
    id: p.uuid().primary(),
    queue: p.string().length(100),
    jobName: p.string().length(100),
    payload: p.json<Record<string, unknown>>(),
    correlationId: p.string().length(100),
    createdAt: p.datetime().onCreate(() => new Date()),
    availableAt: p.datetime().onCreate(() => new Date()),
    relayAttempts: p.integer().default(0),
    lastError: p.text().nullable(),
  },
});
export class OutboxMessage extends OutboxMessageSchema.class {}
OutboxMessageSchema.setClass(OutboxMessage);

class CreateOutbox20261121 extends Migration {
  override async up() {
    this.addSql(`create table if not exists platform.outbox (
      id uuid primary key,
      queue varchar(100) not null,
      job_name varchar(100) not null,
      payload jsonb not null,
      correlation_id varchar(100) not null,
      created_at timestamptz not null default now(),
      available_at timestamptz not null default now(),
      relay_attempts integer not null default 0,
      last_error text null
    )`);
    this.addSql('create index if not exists outbox_available_idx on platform.outbox (available_at)');
  }
}

export const OUTBOX_SCHEMA: ServiceSchema = {
  service: 'platform',
  entities: [OutboxMessageSchema],
  migrations: [{ name: '20261121_create_outbox', class: CreateOutbox20261121 }],
};
