import { CanActivate, ExecutionContext, Injectable, UnauthorizedException, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IdentityMessages } from '@plink/contracts';
import { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { readSessionId } from './session-cookie';
import { SessionStore } from './session.store';

export type AuthedRequest = FastifyRequest & { user?: User; sessionId?: string };

/** Lets a request through only with a live session of an existing user; puts that user on the request. */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionStore,
    private readonly users: UsersRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }

  /**
   * The request's signed-in user (by its session cookie), also set on the request; throws 401 otherwise.
   * Plain Fastify routes (outside Nest's guards) call this directly.
   */
  async authenticate(request: AuthedRequest): Promise<User> {
    const sessionId = readSessionId(request);
    const session = await this.sessions.get(sessionId);
    const user = session ? await this.users.findById(session.userId) : null;
    if (!user) throw new UnauthorizedException({ message: IdentityMessages.notSignedIn });
    request.user = user;
    request.sessionId = sessionId;
    return user;
  }
}

/** The signed-in user (behind {@link SignedInGuard}). */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): User => {
  return context.switchToHttp().getRequest<AuthedRequest>().user!;
});
