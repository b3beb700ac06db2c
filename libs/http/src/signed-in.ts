import { CanActivate, ExecutionContext, Injectable, UnauthorizedException, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IdentityMessages } from '@plink/contracts';

/** What every service may know about the creator making a request (the identity service answers it). */
export interface SignedInUser {
  id: number;
  username: string;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
}

export type AuthedRequest = FastifyRequest & { user?: SignedInUser; sessionId?: string };

/**
 * The port behind {@link SignedInGuard}: who is signed in on a request (by its session cookie). The identity
 * service implements it; the process that composes the HTTP app provides it (a global provider), so that
 * services guard their calls without depending on identity.
 */
export abstract class SessionLookup {
  /** The signed-in user and session id of the request, or null when there is no live session of an existing user. */
  abstract signedIn(request: FastifyRequest): Promise<{ user: SignedInUser; sessionId: string } | null>;
}

/** Lets a request through only with a live session of an existing user; puts that user on the request. */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(private readonly sessions: SessionLookup) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }

  /**
   * The request's signed-in user (by its session cookie), also set on the request; throws 401 otherwise.
   * Plain Fastify routes (outside Nest's guards) call this directly.
   */
  async authenticate(request: AuthedRequest): Promise<SignedInUser> {
    const found = await this.sessions.signedIn(request);
    if (!found) throw new UnauthorizedException({ message: IdentityMessages.notSignedIn });
    request.user = found.user;
    request.sessionId = found.sessionId;
    return found.user;
  }
}

/** The signed-in user (behind {@link SignedInGuard}). */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): SignedInUser => {
  return context.switchToHttp().getRequest<AuthedRequest>().user!;
});
