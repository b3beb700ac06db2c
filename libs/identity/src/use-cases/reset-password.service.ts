import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages } from '@plink/contracts';
import { hashToken } from '@plink/crypto';
import { SessionStore } from '../sessions/session.store';
import { PasswordHasher } from '../users/password-hasher';
import { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

/** Sets a new password from a valid reset token (spent on use) and ends every session of the account. */
@Injectable()
export class ResetPasswordService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStore,
  ) {}

  async isValid(token: string): Promise<boolean> {
    if (!token || token.length > 200) return false;
    return (await this.users.findByResetToken(hashToken(token))) !== null;
  }

  async execute(token: string, password: string): Promise<void> {
    const tokenHash = hashToken(token);
    const user = await this.users.findByResetToken(tokenHash);
    if (!user) throw new BadRequestException({ message: IdentityMessages.invalidResetToken });
    const passwordHash = await this.hasher.hash(password);
    // Spend the token atomically: of two concurrent resets with one token, only one wins.
    const spent = await this.em.nativeUpdate(
      User,
      { id: user.id, resetPasswordToken: tokenHash, resetPasswordTokenExpiry: { $gt: new Date() } },
      {
        passwordHash,
        resetPasswordToken: null,
        resetPasswordTokenExpiry: null,
        // The link came through the account's mailbox: that proves the address.
        isVerified: true,
      },
    );
    if (spent !== 1) throw new BadRequestException({ message: IdentityMessages.invalidResetToken });
    await this.sessions.destroyAllForUser(user.id);
  }
}
