import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { hashToken } from '@plink/crypto';
import { ApiTokenLookup } from '@plink/http';
import { getLogger } from '@plink/observability';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { ApiTokenChanges } from './api-tokens';

/** How long a verified token is believed without asking the database again (a revocation drops it at once). */
const CACHE_MS = 5 * 60_000;
/** "Last used" is written at most this often per token and process, not on every request. */
const LAST_USED_EVERY_MS = 60_000;
const CACHE_MAX = 10_000;

/**
 * Identity's answer to the API token port: the token's SHA-256 is looked up (an index on the hash; the token
 * itself is never stored), then its user. Verified tokens are kept per process while the revocation channel's
 * subscription is live: a revocation publishes the hash and every process drops it, so a revoked token is
 * refused within a second everywhere, without a query per request.
 */
@Injectable()
export class IdentityApiTokenLookup extends ApiTokenLookup {
  private readonly cache = new Map<string, { tokenId: number; userId: number; until: number }>();
  private readonly lastUsedWritten = new Map<number, number>();

  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly changes: ApiTokenChanges,
  ) {
    super();
    changes.onChange((hash) => (hash === null ? this.cache.clear() : this.cache.delete(hash)));
  }

  async verify(token: string): Promise<{ tokenId: number; user: User } | null> {
    const hash = hashToken(token);
    const found = await this.byHash(hash);
    if (!found) return null;
    const user = await this.users.findById(found.userId);
    if (!user) return null;
    this.touch(found.tokenId);
    return { tokenId: found.tokenId, user };
  }

  private async byHash(hash: string): Promise<{ tokenId: number; userId: number } | null> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now && this.changes.live()) return cached;
    // Subscribed before the read: a revocation published meanwhile is not missed.
    const live = this.changes.live();
    const rows: { id: number; user_id: number }[] = await this.em.fork().execute('select id, user_id from identity.api_tokens where token_hash = ?', [hash]);
    if (rows.length === 0) {
      this.cache.delete(hash);
      return null;
    }
    const entry = { tokenId: Number(rows[0].id), userId: Number(rows[0].user_id), until: now + CACHE_MS };
    if (live) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(hash, entry);
    }
    return entry;
  }

  /** Records "last used", at most once a minute per token (in the background: a request never waits for it). */
  private touch(tokenId: number): void {
    const now = Date.now();
    if ((this.lastUsedWritten.get(tokenId) ?? 0) > now - LAST_USED_EVERY_MS) return;
    if (this.lastUsedWritten.size >= CACHE_MAX) this.lastUsedWritten.clear();
    this.lastUsedWritten.set(tokenId, now);
    this.em
      .fork()
      .execute('update identity.api_tokens set last_used_at = now() where id = ?', [tokenId])
      .catch((err: unknown) => getLogger().warn({ err: err instanceof Error ? err.message : String(err) }, 'API token: last use not recorded'));
  }
}
