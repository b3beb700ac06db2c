import { BadRequestException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages } from '@plink/contracts';
import { hashToken } from '@plink/crypto';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

/** Marks the account of a valid, unexpired verification token verified; the token is then spent. */
@Injectable()
export class VerifyEmailService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
  ) {}

  async execute(token: string): Promise<User> {
    const user = await this.users.findByVerificationToken(hashToken(token));
    if (!user) throw new BadRequestException({ message: IdentityMessages.invalidVerificationToken });
    user.isVerified = true;
    user.verificationToken = null;
    user.verificationTokenExpiry = null;
    await this.em.flush();
    return user;
  }
}
