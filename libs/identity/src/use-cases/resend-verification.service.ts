import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, RESEND_VERIFICATION_COOLDOWN_SECONDS } from '@plink/contracts';
import { APP_CONFIG, Outbox, RateLimiter, seal, tooManyRequests, type AppConfig } from '@plink/platform';
import type { User } from '../users/user.entity';
import { VERIFICATION_TOKEN_TTL_MS, issueToken } from './tokens';

/** A new verification link (the previous one stops working), at most once per 30 s per account. */
@Injectable()
export class ResendVerificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: Outbox,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(user: User): Promise<void> {
    if (user.isVerified) throw new BadRequestException({ message: IdentityMessages.alreadyVerified });
    const cooldown = await this.limiter.takeCooldown('resend-verification', String(user.id), RESEND_VERIFICATION_COOLDOWN_SECONDS);
    if (!cooldown.ok) {
      throw tooManyRequests(
        `Please wait ${cooldown.retryAfterSeconds} seconds before requesting another verification email.`,
        cooldown.retryAfterSeconds,
      );
    }
    const verification = issueToken(VERIFICATION_TOKEN_TTL_MS);
    try {
      await this.em.transactional(async (tx) => {
        const managed = tx.merge(user);
        managed.verificationToken = verification.hash;
        managed.verificationTokenExpiry = verification.expiresAt;
        this.outbox.record(tx, 'email.verification', {
          v: 1,
          userId: user.id,
          sealedToken: seal(this.config.sessionSecret, verification.token),
        });
      });
    } catch (err) {
      await this.limiter.releaseCooldown('resend-verification', String(user.id));
      throw err;
    }
    this.outbox.kick();
  }
}
