import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, ApiTokenMessages, type ApiTokenDto, type CreatedApiTokenDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { hashToken } from '@plink/crypto';
import { ChangeChannel, REDIS, RedisKeys } from '@plink/redis';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters: 256 bits. */
const TOKEN_CHARS = 43;

/** `plk_` and 43 base62 characters, each drawn without bias (bytes of 248 and above are thrown away). */
export function newApiToken(): string {
  let out = API_TOKEN_PREFIX;
  while (out.length < API_TOKEN_PREFIX.length + TOKEN_CHARS) {
    for (const byte of randomBytes(64)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === API_TOKEN_PREFIX.length + TOKEN_CHARS) break;
    }
  }
  return out;
}

/**
 * Tells every process that a token was revoked (its hash), so their caches of verified tokens drop it: the
 * Redis channel `{prefix}identity:api-tokens`. A cache keeps entries only while its subscription is live.
 */
@Injectable()
export class ApiTokenChanges extends ChangeChannel {
  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS) redis: Redis, keys: RedisKeys) {
    super(config, redis, keys, { service: 'identity', topic: 'api-tokens', what: 'an API token revocation' });
  }
}

interface TokenRow {
  id: number;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toDto = (row: TokenRow): ApiTokenDto => ({
  id: Number(row.id),
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/** A user's API tokens (identity.api_tokens): made, listed, revoked with the session in Settings. */
@Injectable()
export class ApiTokens {
  constructor(
    private readonly em: EntityManager,
    private readonly changes: ApiTokenChanges,
  ) {}

  async create(userId: number, name: string): Promise<CreatedApiTokenDto> {
    const token = newApiToken();
    const rows: TokenRow[] = await this.em.execute(
      'insert into identity.api_tokens (user_id, name, token_hash) values (?, ?, ?) returning id, name, created_at, last_used_at',
      [userId, name, hashToken(token)],
    );
    const { id, createdAt } = toDto(rows[0]);
    return { id, name, token, createdAt };
  }

  async list(userId: number): Promise<ApiTokenDto[]> {
    const rows: TokenRow[] = await this.em.execute(
      'select id, name, created_at, last_used_at from identity.api_tokens where user_id = ? order by id desc',
      [userId],
    );
    return rows.map(toDto);
  }

  /** Revokes the user's token (404 for another's): refused at once here, and within a second everywhere. */
  async revoke(userId: number, id: number): Promise<void> {
    const rows: { token_hash: string }[] = await this.em.execute('delete from identity.api_tokens where id = ? and user_id = ? returning token_hash', [id, userId]);
    if (rows.length === 0) throw new NotFoundException({ message: ApiTokenMessages.tokenNotFound });
    await this.changes.publish([rows[0].token_hash]);
  }
}
