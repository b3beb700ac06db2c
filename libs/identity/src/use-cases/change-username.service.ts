import { ConflictException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, type ChangeUsernameRequest } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

/**
 * Settings → Account's username change, under the registration's rules (the schema, unique in any case; the
 * unique index decides a race). The change is published ('user.changed') in the same transaction, so the
 * pages service's copy of the owner follows one hop away: the pages answer at `/p/{new}/{slug}`, and the old
 * long address stops answering (the old name is free for someone else, whose pages it may come to name).
 */
@Injectable()
export class ChangeUsernameService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
  ) {}

  async execute(user: User, input: ChangeUsernameRequest): Promise<User> {
    if (input.username === user.username) return user;
    if (await this.users.takenByAnother(user.id, 'username', input.username)) throw new ConflictException({ message: IdentityMessages.usernameExists });
    try {
      // Counted in the row's own update: two changes at once get two versions, in the order they commit.
      const version = await this.em.transactional(async (tx) => {
        const [row] = await tx.execute<{ profile_version: number; email: string }[]>(
          'update identity.users set username = ?, profile_version = profile_version + 1 where id = ? returning profile_version, email',
          [input.username, user.id],
        );
        this.outbox.publish(tx, 'user.changed', { v: 1, userId: user.id, username: input.username, email: row.email, version: row.profile_version });
        return row.profile_version;
      });
      getLogger().info({ userId: user.id, version }, 'username changed');
      const renamed = await this.users.findByIdAfresh(user.id);
      return renamed!;
    } catch (err) {
      if (UsersRepository.violatedField(err) === 'username') throw new ConflictException({ message: IdentityMessages.usernameExists });
      throw err;
    }
  }
}
