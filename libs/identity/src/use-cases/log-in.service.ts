import { ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { IdentityMessages, type LoginRequest } from '@plink/contracts';
import { REDIS, RedisUnavailableError } from '@plink/redis';
import { PasswordHasher } from '../users/password-hasher';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthRateLimits } from './auth-rate-limits';

/**
 * Checks credentials: 429 while this (e-mail, address) pair must wait after repeated wrong
 * passwords or this address has sent too many (see {@link AuthRateLimits}), 401 for a wrong e-mail
 * or password alike, 403 for a right password on an unverified account, 503 while Redis is away.
 */
@Injectable()
export class LogInService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly limits: AuthRateLimits,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** `address` is the caller's IP address (Fastify's `request.ip`, which honours TRUST_PROXY). */
  async verifyCredentials(input: LoginRequest, address: string): Promise<User> {
    const user = await this.checkPassword(input, address);
    if (!user.isVerified) throw new ForbiddenException({ message: IdentityMessages.verifyBeforeLogin });
    return user;
  }

  /**
   * The account these credentials open, verified or not, under the login's limits (the login screen's
   * "Resend verification email" proves the password the same way a login does).
   */
  async checkPassword(input: LoginRequest, address: string): Promise<User> {
    // No session can be started without Redis. Answer 503 before the password is checked: otherwise a
    // wrong password (401) and a right one (503 when the session fails) would answer differently during
    // an outage, while the throttling has only this process's memory to count with.
    if (this.redis.status !== 'ready') throw new RedisUnavailableError();
    await this.limits.assertLoginAllowed(input.email, address);
    const user = await this.users.findByEmail(input.email);
    const ok = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verifyNothing(input.password);
    if (!user || !ok) {
      await this.limits.recordLoginFailure(input.email, address);
      throw new UnauthorizedException({ message: IdentityMessages.invalidCredentials });
    }
    await this.limits.clearLoginFailures(input.email, address);
    return user;
  }
}
