import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { REDIS, RedisKeys } from '@plink/redis';
import { hmac, randomToken } from '@plink/crypto';

export const SESSION_COOKIE = 'plink_session';
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionData {
  userId: number;
  createdAt: string;
}

/**
 * Sessions in Redis (shared by every gateway replica). The cookie holds a random 256-bit id;
 * Redis holds only an HMAC of it, plus a per-user index so that a password reset can end
 * every session of that user.
 */
@Injectable()
export class SessionStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private ref(sessionId: string): string {
    return hmac(this.config.sessionSecret, sessionId);
  }

  private sessionKey(ref: string): string {
    return this.keys.key('session', ref);
  }

  private userIndexKey(userId: number): string {
    return this.keys.key('user-sessions', userId);
  }

  /** Starts a session and returns the id to put in the cookie. */
  async create(userId: number): Promise<string> {
    const id = randomToken(32);
    const ref = this.ref(id);
    const data: SessionData = { userId, createdAt: new Date().toISOString() };
    await this.redis
      .multi()
      .set(this.sessionKey(ref), JSON.stringify(data), 'EX', SESSION_TTL_SECONDS)
      .sadd(this.userIndexKey(userId), ref)
      .expire(this.userIndexKey(userId), SESSION_TTL_SECONDS)
      .exec();
    return id;
  }

  async get(sessionId: string | undefined): Promise<SessionData | null> {
    if (!sessionId || sessionId.length > 100) return null;
    const raw = await this.redis.get(this.sessionKey(this.ref(sessionId)));
    if (!raw) return null;
    try {
      const data = JSON.parse(raw) as SessionData;
      return Number.isInteger(data.userId) ? data : null;
    } catch {
      return null;
    }
  }

  async destroy(sessionId: string | undefined): Promise<void> {
    if (!sessionId) return;
    const ref = this.ref(sessionId);
    const data = await this.get(sessionId);
    const tx = this.redis.multi().del(this.sessionKey(ref));
    if (data) tx.srem(this.userIndexKey(data.userId), ref);
    await tx.exec();
  }

  /** Ends every session of the user except `keepSessionId` (if given). Returns how many ended. */
  async destroyAllForUser(userId: number, keepSessionId?: string): Promise<number> {
    const keep = keepSessionId ? this.ref(keepSessionId) : undefined;
    const refs = (await this.redis.smembers(this.userIndexKey(userId))).filter((r) => r !== keep);
    if (refs.length === 0) return 0;
    await this.redis
      .multi()
      .del(...refs.map((r) => this.sessionKey(r)))
      .srem(this.userIndexKey(userId), ...refs)
      .exec();
    return refs.length;
  }
}
