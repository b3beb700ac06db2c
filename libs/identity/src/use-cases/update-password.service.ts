import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, type UpdatePasswordRequest } from '@plink/contracts';
import { SessionStore } from '../sessions/session.store';
import { PasswordHasher } from '../users/password-hasher';
import type { User } from '../users/user.entity';

/** Changes the signed-in user's password after checking the current one; other sessions end. */
@Injectable()
export class UpdatePasswordService {
  constructor(
    private readonly em: EntityManager,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStore,
  ) {}

  async execute(user: User, input: UpdatePasswordRequest, currentSessionId?: string): Promise<void> {
    if (!(await this.hasher.verify(user.passwordHash, input.currentPassword))) {
      throw new BadRequestException({ message: IdentityMessages.currentPasswordWrong });
    }
    user.passwordHash = await this.hasher.hash(input.newPassword);
    await this.em.flush();
    await this.sessions.destroyAllForUser(user.id, currentSessionId);
  }
}
