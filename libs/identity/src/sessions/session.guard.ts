import { ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SessionLookup, type AuthedRequest } from '@plink/http';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { readSessionId } from './session-cookie';
import { SessionStore } from './session.store';

/**
 * Identity's answer to the platform's session port: the live session named by the request's cookie, and
 * its user (the `User` entity, so identity's own calls can use it as such).
 */
@Injectable()
export class IdentitySessionLookup extends SessionLookup {
  constructor(
    private readonly sessions: SessionStore,
    private readonly users: UsersRepository,
  ) {
    super();
  }

  async signedIn(request: FastifyRequest): Promise<{ user: User; sessionId: string } | null> {
    const sessionId = readSessionId(request);
    const session = await this.sessions.get(sessionId);
    const user = session ? await this.users.findById(session.userId) : null;
    return user && sessionId ? { user, sessionId } : null;
  }
}

/** Identity's own calls: the signed-in `User` entity (behind the platform's SignedInGuard, fed by IdentitySessionLookup). */
export const CurrentIdentityUser = createParamDecorator((_: unknown, context: ExecutionContext): User => {
  return context.switchToHttp().getRequest<AuthedRequest>().user as User;
});
