import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, Outbox, RateLimiter, getLogger, seal, type AppConfig } from '@plink/platform';
import { UsersRepository } from '../users/users.repository';
import { RESET_TOKEN_TTL_MS, issueToken } from './tokens';

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
    private readonly outbox: Outbox,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const cooldown = await this.limiter.takeCooldown('reset-email', String(user.id), RESET_EMAIL_COOLDOWN_SECONDS);
    if (!cooldown.ok) {
      getLogger().info({ userId: user.id }, 'password reset e-mail skipped: requested again too soon');
      return;
    }
    const reset = issueToken(RESET_TOKEN_TTL_MS);
    await this.em.transactional(async (tx) => {
      const managed = tx.merge(user);
      managed.resetPasswordToken = reset.hash;
      managed.resetPasswordTokenExpiry = reset.expiresAt;
      this.outbox.record(tx, 'email.password-reset', {
        v: 1,
        userId: user.id,
        sealedToken: seal(this.config.sessionSecret, reset.token),
      });
    });
    this.outbox.kick();
  }
}
