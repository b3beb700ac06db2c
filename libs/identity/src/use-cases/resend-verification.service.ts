import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, RESEND_VERIFICATION_COOLDOWN_SECONDS } from '@plink/contracts';
import { RateLimiter } from '@plink/redis';
import { tooManyRequests } from '@plink/http';
import type { User } from '../users/user.entity';
import { EmailedTokens } from './emailed-tokens';

/** A new verification link (the previous one stops working), at most once per 30 s per account. */
@Injectable()
export class ResendVerificationService {
  constructor(
    private readonly em: EntityManager,
    private readonly tokens: EmailedTokens,
    private readonly limiter: RateLimiter,
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
    try {
      await this.em.transactional(async (tx) => this.tokens.issue(tx, tx.merge(user), 'verification'));
    } catch (err) {
      await this.limiter.releaseCooldown('resend-verification', String(user.id));
      throw err;
    }
  }
}
