import { defineEntity, p } from '@mikro-orm/core';

/** A page's conversion count, kept in the same transaction as the leads it counts. */
export const PageCounterSchema = defineEntity({
  name: 'PageCounter',
  schema: 'leads',
  tableName: 'page_counters',
  properties: {
    pageId: p.integer().primary().autoincrement(false),
    conversions: p.integer().default(0),
  },
});
export class PageCounter extends PageCounterSchema.class {}
PageCounterSchema.setClass(PageCounter);
