import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { IdentityMessages, tooManyLoginAttemptsMessage } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { RateLimiter, REDIS, RedisKeys } from '@plink/redis';
import { getLogger } from '@plink/observability';
import { tooManyRequests } from '@plink/http';

/** Wrong passwords one (account, address) pair may send in the window before it has to wait. */
export const LOGIN_FREE_FAILURES = 5;
/** Window of the failure counts (per pair and per address), and the longest wait. */
export const LOGIN_FAILURES_WINDOW_SECONDS = 15 * 60;

/** Window of the registration count per address. */
export const REGISTRATIONS_WINDOW_SECONDS = 60 * 60;

/** The wait after the `failures`-th wrong password of one pair: 1 s after the 5th, 2 s, 4 s, … at most 15 minutes. */
export function loginBackoffSeconds(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - LOGIN_FREE_FAILURES), LOGIN_FAILURES_WINDOW_SECONDS);
}

/**
 * Limits on the auth calls, shared by every replica through Redis.
 *
 * Wrong passwords are counted per (account, address) pair and per address, never per account
 * alone: a stranger who guesses from one address slows down only his own pair (after 5 wrong
 * passwords in 15 minutes each further attempt waits twice as long as the last, up to 15
 * minutes) and, after LOGIN_FAILURES_PER_ADDRESS wrong passwords over all accounts, his whole
 * address. The owner, from any other address, still gets in at once; a right password clears
 * the owner's own pair.
 *
 * The counters are rate-limiter-flexible's Redis limiters on the shared client, under this
 * deployment's key prefix. When Redis fails they fall back to per-process memory counters, and
 * if even that fails the login goes ahead: a Redis outage must not lock everybody out.
 */
@Injectable()
export class AuthRateLimits {
  private readonly pairFailures: RateLimiterRedis;
  private readonly pairWait: RateLimiterRedis;
  private readonly addressFailures?: RateLimiterRedis;
  private readonly registrations?: RateLimiterRedis;

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: Redis,
    keys: RedisKeys,
  ) {
    const counter = (name: string, points: number, blockDuration = 0, duration = LOGIN_FAILURES_WINDOW_SECONDS) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: keys.key('auth', name),
        points,
        duration,
        blockDuration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `auth-${name}`, points, duration }),
      });
    this.pairFailures = counter('fails-pair', LOGIN_FREE_FAILURES);
    // Only ever blocked for a pair's current wait (`block` stores points + 1, i.e. "over the limit").
    this.pairWait = counter('wait-pair', 1);
    if (config.loginFailuresPerAddress > 0) {
      // Blocked for the full window by the failure that reaches the cap (the counter's "over the limit").
      this.addressFailures = counter('fails-address', config.loginFailuresPerAddress - 1, LOGIN_FAILURES_WINDOW_SECONDS);
    }
    if (config.registrationsPerAddressPerHour > 0) {
      this.registrations = counter('registrations', config.registrationsPerAddressPerHour, 0, REGISTRATIONS_WINDOW_SECONDS);
    }
  }

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

  /**
   * Counts one registration attempt of this address and throws 429 (with Retry-After) past
   * REGISTRATIONS_PER_ADDRESS_PER_HOUR (default 10). Every registration answer tells whether an
   * e-mail has an account (a taken address answers 'Email already exists'), so this cap is what keeps a list of
   * addresses from being checked quickly.
   */
  async countRegistration(address: string): Promise<void> {
    if (!this.registrations) return;
    const res = await safely(consumed(this.registrations, address), null);
    if (res && res.consumedPoints > this.config.registrationsPerAddressPerHour) {
      throw tooManyRequests(IdentityMessages.tooManyRegistrations, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
  }

  /** Throws 429 (with Retry-After) while this pair must wait or this address has failed too often. */
  async assertLoginAllowed(email: string, address: string): Promise<void> {
    const [byAddress, byPair] = await Promise.all([
      this.addressFailures ? safely(this.addressFailures.get(address), null) : null,
      safely(this.pairWait.get(pairKey(email, address)), null),
    ]);
    const waits = [
      byAddress && byAddress.consumedPoints >= this.config.loginFailuresPerAddress ? byAddress.msBeforeNext : 0,
      byPair && byPair.consumedPoints > 1 ? byPair.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...waits);
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw tooManyRequests(tooManyLoginAttemptsMessage(seconds), seconds);
    }
  }

  /** Counts a wrong password against the pair and the address; from the 5th on, the pair waits. */
  async recordLoginFailure(email: string, address: string): Promise<void> {
    const key = pairKey(email, address);
    const [pair] = await Promise.all([
      safely(consumed(this.pairFailures, key), null),
      this.addressFailures ? safely(consumed(this.addressFailures, address), null) : null,
    ]);
    const wait = pair ? loginBackoffSeconds(pair.consumedPoints) : 0;
    if (wait > 0) await safely(this.pairWait.block(key, wait), null);
  }

  /** A right password: this pair starts afresh (the address count stays). */
  async clearLoginFailures(email: string, address: string): Promise<void> {
    const key = pairKey(email, address);
    await Promise.all([safely(this.pairFailures.delete(key), false), safely(this.pairWait.delete(key), false)]);
  }
}

/** The pair's key: a hash, so Redis holds no e-mail addresses. */
function pairKey(email: string, address: string): string {
  return createHash('sha256').update(`${email.trim().toLowerCase()}\n${address}`).digest('base64url');
}

/** consume() rejects with the counter's state once over the limit; here both ways give the state. */
function consumed(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  return limiter.consume(key).catch((res: unknown) => {
    if (res instanceof RateLimiterRes) return res;
    throw res;
  });
}

/** Fail open: a limiter that cannot answer (Redis and its memory fallback both failing) allows. */
async function safely<T>(promise: Promise<T>, fallback: T): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    getLogger().warn({ err: err instanceof Error ? err.message : String(err) }, 'login limiter unavailable: allowing');
    return fallback;
  }
}
