import { defineEntity, p } from '@mikro-orm/core';
import { PLAN_STATUSES } from '@plink/contracts';

export const PLAN_SOURCES = ['stripe', 'operator'] as const;
export type PlanSource = (typeof PLAN_SOURCES)[number];

/**
 * A user's plan as billing knows it (one row per user who ever had a plan change). Billing owns the plan;
 * identity keeps a copy on the user (isPremium and the plan fields), applied from billing's 'plan.changed'.
 */
export const BillingAccountSchema = defineEntity({
  name: 'BillingAccount',
  schema: 'billing',
  tableName: 'accounts',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    stripeCustomerId: p.string().length(100).nullable(),
    stripeSubscriptionId: p.string().length(100).nullable(),
    status: p.enum(PLAN_STATUSES).default('none'),
    /** The user has had the free trial (it is offered once). */
    trialUsed: p.boolean().default(false),
    currentPeriodEnd: p.datetime().nullable(),
    trialEnd: p.datetime().nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    /** Who set the current state: a Stripe subscription, or the operator's command. Null before either. */
    source: p.enum(PLAN_SOURCES).nullable(),
    /** When an operator grant given with `--days` ends; null for a grant without end. */
    operatorExpiresAt: p.datetime().nullable(),
    /** The decision of the last change (see decidePremium), kept so a change that flips it can be told apart. */
    isPremium: p.boolean().default(false),
    /** Time of the last Stripe event applied (events older than it are stale). */
    lastEventAt: p.datetime().nullable(),
    /** When Pro last ended (set when a change ends Pro, cleared when Pro starts again). */
    downgradedAt: p.datetime().nullable(),
    /** When the warning that paused pages' leads will be removed was recorded (once per downgrade). */
    leadRemovalWarnedAt: p.datetime().nullable(),
    /** When the removal of paused pages' leads was recorded (once per downgrade). */
    leadsRemovedAt: p.datetime().nullable(),
    /** The hash of the normalised e-mail of the last checkout (see personKeyOf): the trial's person. */
    personKey: p.string().length(64).nullable(),
    /** The account's last Checkout Session, its expiry, and whether it offers the trial (reused while open). */
    checkoutSessionId: p.string().length(255).nullable(),
    checkoutExpiresAt: p.datetime().nullable(),
    checkoutWithTrial: p.boolean().nullable(),
    /** Counts the stored plan's changes (see ApplyPlanService's `basedOn`). */
    planVersion: p.integer().default(0),
    /** The newest profile version of the user (identity's 'user.changed') whose e-mail was given to Stripe. */
    profileVersion: p.integer().default(0),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class BillingAccount extends BillingAccountSchema.class {}
BillingAccountSchema.setClass(BillingAccount);
