import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { AccountDataMessages, type DeleteAccountRequest } from '@plink/contracts';
import { Outbox } from '@plink/queue';
import { getLogger } from '@plink/observability';
import { SessionStore } from '../sessions/session.store';
import type { User } from '../users/user.entity';
import { AccountPassword } from './account-password';

/**
 * Settings → Account → Delete account. The owner proves the password (under the login's limits, with the
 * message a wrong current password gets elsewhere) and types their username; then one transaction removes the
 * user and publishes 'user.deleted', whose subscribers remove what they keep of them,
 * and records the final e-mail to the address the account had. From that commit on, sign-in finds no account
 * and every session finds no user (the session lookup reads the row), so deletion is immediate; the sessions'
 * keys are dropped from Redis right after. The username and e-mail are free at once (the unique indexes hold
 * rows that exist). The gateway, which also runs the pages calls, applies the event in this very transaction
 * (the pages go offline with the commit).
 */
@Injectable()
export class DeleteAccountService {
  constructor(
    private readonly em: EntityManager,
    private readonly password: AccountPassword,
    private readonly sessions: SessionStore,
    private readonly outbox: Outbox,
  ) {}

  async execute(user: User, input: DeleteAccountRequest, address: string): Promise<void> {
    await this.password.check(user, input.password, address);
    if (input.username.trim() !== user.username) throw new BadRequestException({ message: AccountDataMessages.usernameMismatch });
    const deleted = await this.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<{ id: number; email: string; username: string }[]>(
        'delete from identity.users where id = ? returning id, email, username',
        [user.id],
      );
      if (rows.length === 0) return false;
      const [row] = rows;
      this.outbox.publish(tx, 'user.deleted', { v: 1, userId: row.id, deletedAt: new Date().toISOString() });
      this.outbox.record(tx, 'email.account-deleted', { v: 1, to: { userId: row.id, email: row.email, username: row.username } });
      // Flushed here so that what the gateway applies of 'user.deleted' (the pages' removal, which records more
      // messages) is flushed by the transaction's own final flush, still before the commit.
      await tx.flush();
      return true;
    });
    await this.sessions.destroyAllForUser(user.id);
    if (deleted) getLogger().info({ userId: user.id }, 'account deleted');
  }
}
