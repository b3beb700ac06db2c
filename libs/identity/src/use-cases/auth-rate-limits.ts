import { Inject, Injectable } from '@nestjs/common';
import { IdentityMessages } from '@plink/contracts';
import { APP_CONFIG, RateLimiter, tooManyRequests, type AppConfig } from '@plink/platform';

/** Wrong passwords for one account before login is refused for the rest of the window. */
export const LOGIN_FAILURES_LIMIT = 5;
export const LOGIN_FAILURES_WINDOW_SECONDS = 15 * 60;

@Injectable()
export class AuthRateLimits {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Throws 429 when this address has made too many `action` calls this minute. The limit
   * (AUTH_RATE_LIMIT_PER_MINUTE, default 200) leaves room for an office behind one address.
   */
  async perAddress(action: string, address: string): Promise<void> {
    const limit = this.config.authRateLimitPerMinute;
    if (limit <= 0) return;
    const decision = await this.limiter.hit(`auth-${action}`, address, limit, 60);
    if (!decision.allowed) throw tooManyRequests(IdentityMessages.tooManyRequests, decision.retryAfterSeconds);
  }

  async assertLoginAllowed(email: string): Promise<void> {
    const decision = await this.limiter.check('login-failures', email.toLowerCase(), LOGIN_FAILURES_LIMIT, LOGIN_FAILURES_WINDOW_SECONDS);
    if (!decision.allowed) throw tooManyRequests(IdentityMessages.tooManyLoginAttempts, decision.retryAfterSeconds);
  }

  recordLoginFailure(email: string): Promise<void> {
    return this.limiter.record('login-failures', email.toLowerCase(), LOGIN_FAILURES_WINDOW_SECONDS);
  }

  clearLoginFailures(email: string): Promise<void> {
    return this.limiter.clear('login-failures', email.toLowerCase());
  }
}
