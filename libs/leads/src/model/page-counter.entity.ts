import { defineEntity, p } from '@mikro-orm/core';

/**
 * One shard of a page's conversion count, kept in the same transaction as the leads it counts.
 * A page's conversions are the sum of its shards ({@link COUNTER_SHARDS} at most).
 */
export const PageCounterSchema = defineEntity({
  name: 'PageCounter',
  schema: 'leads',
  tableName: 'page_counters',
  properties: {
    pageId: p.integer().primary().autoincrement(false),
    shard: p.smallint().primary(),
    conversions: p.integer().default(0),
  },
});
export class PageCounter extends PageCounterSchema.class {}
PageCounterSchema.setClass(PageCounter);

/** Rows a page's count is spread over: concurrent submissions on one page rarely wait for each other. */
export const COUNTER_SHARDS = 16;
