import { BadRequestException, Injectable } from '@nestjs/common';
import { IdentityMessages } from '@plink/contracts';
import { AuthRateLimits } from '../use-cases/auth-rate-limits';
import { PasswordHasher } from '../users/password-hasher';
import type { User } from '../users/user.entity';

/**
 * The signed-in owner proves their password again before an irreversible step (account deletion): under the
 * login's limits (a wrong one counts toward this address and account's wait, as a login does), answered with
 * the message a wrong current password gets everywhere in Settings.
 */
@Injectable()
export class AccountPassword {
  constructor(
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
  ) {}

  async check(user: User, password: string, address: string): Promise<void> {
    await this.limits.assertLoginAllowed(user.email, address);
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      await this.limits.recordLoginFailure(user.email, address);
      throw new BadRequestException({ message: IdentityMessages.currentPasswordWrong });
    }
    await this.limits.clearLoginFailures(user.email, address);
  }
}
