import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_TOKEN_PATTERN, API_TOKEN_REQUESTS_PER_MINUTE, ApiTokenMessages } from '@plink/contracts';
import { RateLimiter } from '@plink/redis';
import type { AuthedRequest, SignedInUser } from './signed-in';
import { tooManyRequests } from './api-exception.filter';

export type TokenRequest = AuthedRequest & { apiTokenId?: number };

/**
 * The port behind {@link ApiTokenGuard}: whose API token (`plk_…`) a request carries. The identity service
 * implements it (tokens are its data); the process that composes the HTTP app provides it, as for SessionLookup.
 */
export abstract class ApiTokenLookup {
  /** The token's id and its user, or null when it is unknown or revoked (or its user is gone). */
  abstract verify(token: string): Promise<{ tokenId: number; user: SignedInUser } | null>;
}

/**
 * `/api/v1/*`: lets a request through only with `Authorization: Bearer plk_…` of a live token, and at most
 * API_TOKEN_REQUESTS_PER_MINUTE requests a minute per token (429 with Retry-After). The session cookie is not
 * read: a browser's ambient credential opens nothing here, so these calls have no CSRF surface.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: ApiTokenLookup,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TokenRequest>();
    const token = bearerOf(request);
    const found = token ? await this.tokens.verify(token) : null;
    if (!found) throw new UnauthorizedException({ message: ApiTokenMessages.invalidToken });
    const decision = await this.limiter.hit('api-token', String(found.tokenId), API_TOKEN_REQUESTS_PER_MINUTE, 60);
    if (!decision.allowed) throw tooManyRequests(ApiTokenMessages.tooManyRequests, decision.retryAfterSeconds);
    request.user = found.user;
    request.apiTokenId = found.tokenId;
    return true;
  }
}

/** The request's bearer token when it has the shape of an API token, else null. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match && API_TOKEN_PATTERN.test(match[1]) ? match[1] : null;
}
