import { defineEntity, p } from '@mikro-orm/core';

/**
 * An e-mail address a visitor left on a page. One per page and lower-cased address
 * (unique index); `consentAt` is when the visitor ticked the privacy checkbox (null when the page hides it).
 */
export const LeadSchema = defineEntity({
  name: 'Lead',
  schema: 'leads',
  tableName: 'leads',
  properties: {
    id: p.integer().primary().autoincrement(),
    pageId: p.integer(),
    email: p.string().length(254),
    emailLower: p.string().length(254),
    consentAt: p.datetime().nullable(),
    /** The owner's plan version the capture read (billing's, from 'plan.changed'); null for leads taken before it was kept. */
    planVersion: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Lead extends LeadSchema.class {}
LeadSchema.setClass(Lead);
