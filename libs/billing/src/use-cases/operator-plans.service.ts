import { Injectable } from '@nestjs/common';
import { UserDirectory, type DirectoryUser } from '@plink/contracts';
import { ApplyPlanService } from './apply-plan.service';
import { ReadPlanService } from './read-plan.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An operator command that cannot be done as asked (unknown user, a Stripe subscription in the way). */
export class OperatorCommandError extends Error {}

export interface OperatorResult {
  user: DirectoryUser;
  /** Whether the user's plan changed. */
  changed: boolean;
  isPremium: boolean;
  /** When an operator grant ends by itself (`--days`); null when it does not. */
  expiresAt: Date | null;
}

/**
 * The operator's grant and revoke of Pro (`npm run plink -- grant-pro|revoke-pro`): how a server without
 * Stripe (and a test) makes a user Pro. Same rules as a Stripe change: through {@link ApplyPlanService}.
 * Users are found by e-mail address through the `UserDirectory` port of the contracts: the operator's command
 * line composes identity's answer to it with this service.
 */
@Injectable()
export class OperatorPlansService {
  constructor(
    private readonly users: UserDirectory,
    private readonly plans: ReadPlanService,
    private readonly applyPlan: ApplyPlanService,
  ) {}

  /** Pro for `days` days from `now`, or without end. A running grant is replaced (extended or made endless). */
  async grantPro(email: string, days: number | null, now = new Date()): Promise<OperatorResult> {
    const user = await this.userByEmail(email);
    const account = await this.plans.find(user.id);
    if (account?.isPremium && account.source === 'stripe') {
      throw new OperatorCommandError(`${email} is already Pro through a Stripe subscription; nothing changed.`);
    }
    const expiresAt = days === null ? null : new Date(now.getTime() + days * DAY_MS);
    const applied = await this.applyPlan.applyPlan(
      user.id,
      { status: 'active', source: 'operator', operatorExpiresAt: expiresAt, cancelAtPeriodEnd: false },
      { now },
    );
    // Changed as the user sees it, too: identity's copy may lag behind billing (a grant whose jobs never ran).
    return { user, changed: !applied.wasPremium || !user.isPremium, isPremium: applied.isPremium, expiresAt };
  }

  /** Ends an operator grant at once. A Stripe subscription is the customer's: it is cancelled in Stripe. */
  async revokePro(email: string, now = new Date()): Promise<OperatorResult> {
    const user = await this.userByEmail(email);
    const account = await this.plans.find(user.id);
    if (account?.isPremium && account.source === 'stripe') {
      throw new OperatorCommandError(`${email} is Pro through a Stripe subscription; cancel it in Stripe instead. Nothing changed.`);
    }
    if (!account?.isPremium && !user.isPremium) return { user, changed: false, isPremium: false, expiresAt: null };
    const applied = await this.applyPlan.applyPlan(user.id, { status: 'canceled', source: 'operator', operatorExpiresAt: null }, { now });
    return { user, changed: applied.wasPremium || user.isPremium, isPremium: applied.isPremium, expiresAt: null };
  }

  private async userByEmail(email: string): Promise<DirectoryUser> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new OperatorCommandError(`No user has the e-mail address ${email}.`);
    // Ids start at 1; below that are Plink's own accounts (id 0 owns the example pages), which have no plan.
    if (user.id < 1) throw new OperatorCommandError(`${email} is Plink's own account for the example pages, not a creator's; nothing changed.`);
    return user;
  }
}
