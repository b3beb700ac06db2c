import { defineEntity, p } from '@mikro-orm/core';
import { PLAN_STATUSES } from '@plink/contracts';

/** A creator's account. The password and tokens are stored hashed, never in the clear. */
export const UserSchema = defineEntity({
  name: 'User',
  schema: 'identity',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    username: p.string().length(30),
    email: p.string().length(254),
    passwordHash: p.string().length(200).hidden(),
    isVerified: p.boolean().default(false),
    /** SHA-256 of the e-mail-verification token. */
    verificationToken: p.string().length(64).nullable().hidden(),
    verificationTokenExpiry: p.datetime().nullable().hidden(),
    /** SHA-256 of the password-reset token. */
    resetPasswordToken: p.string().length(64).nullable().hidden(),
    resetPasswordTokenExpiry: p.datetime().nullable().hidden(),
    /** The address an e-mail change waits to be confirmed at; the e-mail stays `email` until then. */
    pendingEmail: p.string().length(254).nullable(),
    /** SHA-256 of the token of the link sent to `pendingEmail`. */
    emailChangeToken: p.string().length(64).nullable().hidden(),
    emailChangeTokenExpiry: p.datetime().nullable().hidden(),
    /** Counts the changes of username and e-mail ('user.changed' carries it): copies keep the highest. */
    profileVersion: p.integer().default(0).hidden(),
    stripeCustomerId: p.string().length(100).nullable(),
    stripeSubscriptionId: p.string().length(100).nullable(),
    isPremium: p.boolean().default(false),
    /** The plan as billing last published it ('plan.changed'); billing owns it, this is a copy. */
    planStatus: p.enum(PLAN_STATUSES).default('none'),
    /** When the plan ends by itself (trial, period or operator grant end); null when it does not. */
    planPeriodEnd: p.datetime().nullable(),
    /** Billing's version of the plan applied last (0: none yet): an older change arriving later is ignored. */
    planVersion: p.integer().default(0).hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
