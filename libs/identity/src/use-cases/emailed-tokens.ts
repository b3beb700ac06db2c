import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Outbox } from '@plink/queue';
import { seal } from '@plink/crypto';
import type { User } from '../users/user.entity';
import { RESET_TOKEN_TTL_MS, VERIFICATION_TOKEN_TTL_MS, issueToken } from './tokens';

/**
 * Gives a user a fresh e-mailed token (verification or reset) inside the caller's transaction:
 * stores its hash and expiry on the user (replacing any earlier one) and records the e-mail job
 * with the token sealed and the account's address and name (relayed once the caller's transaction
 * commits). The checks the e-mail needs are made here, where the account is: the link is new, so it is
 * current, and a verification link is only issued to an unverified user.
 */
@Injectable()
export class EmailedTokens {
  constructor(
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  issue(tx: EntityManager, user: User, kind: 'verification' | 'reset'): void {
    const sealedToken = (token: string) => seal(this.config.sessionSecret, token);
    const to = { userId: user.id, email: user.email, username: user.username };
    if (kind === 'verification') {
      const t = issueToken(VERIFICATION_TOKEN_TTL_MS);
      user.verificationToken = t.hash;
      user.verificationTokenExpiry = t.expiresAt;
      this.outbox.record(tx, 'email.verification', { v: 1, to, sealedToken: sealedToken(t.token) });
    } else {
      const t = issueToken(RESET_TOKEN_TTL_MS);
      user.resetPasswordToken = t.hash;
      user.resetPasswordTokenExpiry = t.expiresAt;
      this.outbox.record(tx, 'email.password-reset', { v: 1, to, sealedToken: sealedToken(t.token) });
    }
  }
}
