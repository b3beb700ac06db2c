import { Injectable } from '@nestjs/common';
import { UserDirectory } from '@plink/contracts';

/** How long a call waits for identity to show a plan it just changed. */
export const PROPAGATION_WAIT_MS = 3_000;

/**
 * Identity copies a plan change onto the user from a job, moments after billing stores it. The calls the
 * SPA follows with GET /api/user (checkout success, the status re-check) wait here, briefly, until the
 * user's requests carry the new plan (asked through the `UserDirectory` port of the contracts, which identity
 * answers where the gateway composes it), so the screen after them shows it. With Redis away the job waits
 * in the outbox: then the call answers after PROPAGATION_WAIT_MS anyway, and the user sees it a little later.
 */
@Injectable()
export class PlanPropagation {
  constructor(private readonly users: UserDirectory) {}

  async untilIdentityShows(userId: number, isPremium: boolean, timeoutMs = PROPAGATION_WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await this.users.isPremiumNow(userId);
      if (current === null || current === isPremium) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
