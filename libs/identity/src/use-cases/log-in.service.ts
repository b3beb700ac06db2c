import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { IdentityMessages, type LoginRequest } from '@plink/contracts';
import { PasswordHasher } from '../users/password-hasher';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthRateLimits } from './auth-rate-limits';

/**
 * Checks credentials: 429 while an account is locked by repeated wrong passwords, 401 for a wrong
 * e-mail or password alike, 403 for a right password on an unverified account.
 */
@Injectable()
export class LogInService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
  ) {}

  async verifyCredentials(input: LoginRequest): Promise<User> {
    await this.limits.assertLoginAllowed(input.email);
    const user = await this.users.findByEmail(input.email);
    const ok = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verifyNothing(input.password);
    if (!user || !ok) {
      await this.limits.recordLoginFailure(input.email);
      throw new UnauthorizedException({ message: IdentityMessages.invalidCredentials });
    }
    if (!user.isVerified) throw new ForbiddenException({ message: IdentityMessages.verifyBeforeLogin });
    await this.limits.clearLoginFailures(input.email);
    return user;
  }
}
