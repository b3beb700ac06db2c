import { ConflictException, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, type RegisterRequest } from '@plink/contracts';
import { PasswordHasher } from '../users/password-hasher';
import { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { EmailedTokens } from './emailed-tokens';

const CONFLICT_MESSAGE = { email: IdentityMessages.emailExists, username: IdentityMessages.usernameExists } as const;

/** Creates an unverified account and, in the same transaction, the job that e-mails its verification link. */
@Injectable()
export class RegisterUserService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: EmailedTokens,
  ) {}

  async execute(input: RegisterRequest): Promise<User> {
    const taken = await this.users.takenField(input.username, input.email);
    if (taken) throw new ConflictException({ message: CONFLICT_MESSAGE[taken] });

    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await this.em.transactional(async (tx) => {
        const created = tx.create(User, { username: input.username, email: input.email, passwordHash });
        await tx.flush();
        this.tokens.issue(tx, created, 'verification');
        return created;
      });
      return user;
    } catch (err) {
      const field = UsersRepository.violatedField(err);
      if (field) throw new ConflictException({ message: CONFLICT_MESSAGE[field] });
      throw err;
    }
  }
}
