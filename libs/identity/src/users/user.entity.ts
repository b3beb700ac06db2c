import { defineEntity, p } from '@mikro-orm/core';

/** A creator's account (SPEC §3 User). The password and tokens are stored hashed, never in the clear. */
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
    stripeCustomerId: p.string().length(100).nullable(),
    stripeSubscriptionId: p.string().length(100).nullable(),
    isPremium: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
