import { BadRequestException, ConflictException, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import {
  EMAIL_CHANGE_COOLDOWN_SECONDS,
  IdentityMessages,
  emailChangeCooldownMessage,
  maskEmail,
  type ChangeEmailRequest,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { hashToken, seal } from '@plink/crypto';
import { tooManyRequests } from '@plink/http';
import { Outbox } from '@plink/queue';
import { RateLimiter } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { PasswordHasher } from '../users/password-hasher';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthRateLimits } from './auth-rate-limits';
import { EMAIL_CHANGE_TOKEN_TTL_MS, issueToken } from './tokens';

/**
 * Settings → Account's e-mail change. The signed-in owner proves the password again (a stolen session alone
 * cannot move the account to another address, and guesses count toward the login's limits), then the NEW
 * address gets a single-use link and the current one a notice naming the new address masked (it may have
 * passed to someone else). Nothing changes until the link is opened: the account keeps signing in with its
 * current address, the change shows as pending, and the owner may cancel it. When it is confirmed, the current
 * address is told the change was made; sessions stay, and a password-reset link sent to the old address stops
 * working.
 */
@Injectable()
export class ChangeEmailService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
    private readonly limiter: RateLimiter,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `address` is the caller's IP address, for the login's limits on wrong passwords. */
  async request(user: User, input: ChangeEmailRequest, address: string): Promise<User> {
    await this.checkPassword(user, input.currentPassword, address);
    if (input.newEmail.toLowerCase() === user.email.toLowerCase()) throw new BadRequestException({ message: IdentityMessages.sameEmail });
    if (await this.users.takenByAnother(user.id, 'email', input.newEmail)) throw new ConflictException({ message: IdentityMessages.emailExists });
    const cooldown = await this.limiter.takeCooldown('email-change', String(user.id), EMAIL_CHANGE_COOLDOWN_SECONDS);
    if (!cooldown.ok) throw tooManyRequests(emailChangeCooldownMessage(cooldown.retryAfterSeconds), cooldown.retryAfterSeconds);
    try {
      return await this.em.transactional(async (tx) => {
        const current = tx.merge(user);
        const t = issueToken(EMAIL_CHANGE_TOKEN_TTL_MS);
        current.pendingEmail = input.newEmail;
        current.emailChangeToken = t.hash;
        current.emailChangeTokenExpiry = t.expiresAt;
        this.outbox.record(tx, 'email.email-change-confirm', {
          v: 1,
          to: { userId: current.id, email: input.newEmail, username: current.username },
          sealedToken: seal(this.config.sessionSecret, t.token),
        });
        this.outbox.record(tx, 'email.email-change-notice', { v: 1, to: this.recipient(current), newEmail: maskEmail(input.newEmail), stage: 'requested' });
        return current;
      });
    } catch (err) {
      await this.limiter.releaseCooldown('email-change', String(user.id));
      throw err;
    }
  }

  /**
   * The link was opened: the account's address becomes the pending one (proven now, so the account is
   * verified), once. 409 when another account took the address meanwhile.
   */
  async confirm(token: string): Promise<User> {
    const tx = this.em.fork();
    const user = await this.users.findByEmailChangeToken(hashToken(token), tx);
    if (!user?.pendingEmail) throw new BadRequestException({ message: IdentityMessages.invalidEmailChangeToken });
    const oldRecipient = this.recipient(user);
    const newEmail = user.pendingEmail;
    user.email = newEmail;
    user.pendingEmail = null;
    user.emailChangeToken = null;
    user.emailChangeTokenExpiry = null;
    user.isVerified = true;
    user.verificationToken = null;
    user.verificationTokenExpiry = null;
    // A reset link went to the address that is no longer the account's.
    user.resetPasswordToken = null;
    user.resetPasswordTokenExpiry = null;
    this.outbox.record(tx, 'email.email-change-notice', { v: 1, to: oldRecipient, newEmail: maskEmail(newEmail), stage: 'changed' });
    // The copies that keep the address (pages: the delivery e-mail's default reply-to) hear of it in the same
    // commit, ordered with renames by the one profile version, counted in the row (as a rename counts it) so
    // that a rename at the same moment gets another number. A change that then fails only skips a number.
    const [row] = await tx.execute<{ profile_version: number }[]>(
      'update identity.users set profile_version = profile_version + 1 where id = ? returning profile_version',
      [user.id],
    );
    this.outbox.publish(tx, 'user.changed', { v: 1, userId: user.id, username: user.username, email: newEmail, version: row.profile_version });
    try {
      await tx.flush();
    } catch (err) {
      if (UsersRepository.violatedField(err) === 'email') throw new ConflictException({ message: IdentityMessages.emailExists });
      throw err;
    }
    getLogger().info({ userId: user.id }, 'e-mail address changed');
    return user;
  }

  /** The owner withdraws a pending change: its link stops working. */
  async cancel(user: User): Promise<User> {
    if (!user.pendingEmail) throw new BadRequestException({ message: IdentityMessages.noPendingEmailChange });
    user.pendingEmail = null;
    user.emailChangeToken = null;
    user.emailChangeTokenExpiry = null;
    await this.em.flush();
    return user;
  }

  /** The password, under the login's limits: a wrong one counts toward this (address, account) pair's wait. */
  private async checkPassword(user: User, password: string, address: string): Promise<void> {
    await this.limits.assertLoginAllowed(user.email, address);
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      await this.limits.recordLoginFailure(user.email, address);
      throw new BadRequestException({ message: IdentityMessages.currentPasswordWrong });
    }
    await this.limits.clearLoginFailures(user.email, address);
  }

  private recipient(user: User): { userId: number; email: string; username: string } {
    return { userId: user.id, email: user.email, username: user.username };
  }
}
