import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiter } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { UsersRepository } from '../users/users.repository';
import { EmailedTokens } from './emailed-tokens';

/** Seconds between two reset e-mails for one account (quietly: the answer never changes). */
const RESET_EMAIL_COOLDOWN_SECONDS = 30;

/**
 * Sends a reset link when the account exists. The caller answers the same either way, so the
 * answer does not tell whether an address has an account.
 */
@Injectable()
export class RequestPasswordResetService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly tokens: EmailedTokens,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const cooldown = await this.limiter.takeCooldown('reset-email', String(user.id), RESET_EMAIL_COOLDOWN_SECONDS);
    if (!cooldown.ok) {
      getLogger().info({ userId: user.id }, 'password reset e-mail skipped: requested again too soon');
      return;
    }
    await this.em.transactional(async (tx) => this.tokens.issue(tx, tx.merge(user), 'reset'));
  }
}
