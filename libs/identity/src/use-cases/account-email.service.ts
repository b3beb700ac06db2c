import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { JobPayload } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { hashToken, unseal } from '@plink/crypto';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

/** The token of a sealed e-mail link is still the account's current one (not replaced, not spent, not expired). */
function isCurrentToken(user: User, kind: 'verification' | 'reset', sealedToken: unknown, sessionSecret: string): boolean {
  if (typeof sealedToken !== 'string') return false;
  let hash: string;
  try {
    hash = hashToken(unseal(sessionSecret, sealedToken));
  } catch {
    return false;
  }
  const [stored, expiry] = kind === 'verification' ? [user.verificationToken, user.verificationTokenExpiry] : [user.resetPasswordToken, user.resetPasswordTokenExpiry];
  return stored === hash && !!expiry && expiry.getTime() > Date.now();
}

/**
 * Addresses an account e-mail ('identity.account-email'): the notifications service sends only what a job
 * carries and reads no account, so an e-mail recorded by user id (by billing, by the pages service, or an
 * e-mail job queued before the address travelled in it) comes here first. The checks that need the account
 * are made here, on the account as it is now: no e-mail to an account that is gone; no verification link to
 * a verified user, nor a link a newer one replaced; no reset link that is no longer current; no lead-removal
 * warning to a user who is Pro again. Then the e-mail is recorded with the address and name.
 */
@Injectable()
export class AccountEmailService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(job: JobPayload<'identity.account-email'>): Promise<void> {
    const user = await this.users.findByIdAfresh(job.userId);
    const skipped = this.whyNotSend(user, job);
    if (skipped) {
      getLogger().info({ userId: job.userId, email: job.email }, skipped);
      return;
    }
    const em = this.em.fork();
    const to = { userId: user!.id, email: user!.email, username: user!.username };
    // The content is checked against the e-mail's contract here, when recorded (a wrong shape fails this job).
    this.outbox.record(em, job.email, { ...job.content, v: 1, to } as never);
    await em.flush();
  }

  private whyNotSend(user: User | null, job: JobPayload<'identity.account-email'>): string | null {
    if (!user) return 'account e-mail skipped: the account is gone';
    switch (job.email) {
      case 'email.verification':
        if (user.isVerified) return 'verification e-mail not needed any more';
        if (!isCurrentToken(user, 'verification', job.content.sealedToken, this.config.sessionSecret)) {
          return 'verification e-mail skipped: a newer link replaced this one';
        }
        return null;
      case 'email.password-reset':
        return isCurrentToken(user, 'reset', job.content.sealedToken, this.config.sessionSecret) ? null : 'password-reset e-mail skipped: link no longer current';
      case 'email.lead-removal-warning':
        return user.isPremium ? 'lead-removal warning skipped: Pro again' : null;
      default:
        return null;
    }
  }
}
