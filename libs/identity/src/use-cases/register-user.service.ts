import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { IdentityMessages, type RegisterRequest } from '@plink/contracts';
import { APP_CONFIG, Outbox, seal, type AppConfig } from '@plink/platform';
import { PasswordHasher } from '../users/password-hasher';
import { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { VERIFICATION_TOKEN_TTL_MS, issueToken } from './tokens';

const CONFLICT_MESSAGE = { email: IdentityMessages.emailExists, username: IdentityMessages.usernameExists } as const;

/** Creates an unverified account and, in the same transaction, the job that e-mails its verification link. */
@Injectable()
export class RegisterUserService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(input: RegisterRequest): Promise<User> {
    const taken = await this.users.takenField(input.username, input.email);
    if (taken) throw new ConflictException({ message: CONFLICT_MESSAGE[taken] });

    const passwordHash = await this.hasher.hash(input.password);
    const verification = issueToken(VERIFICATION_TOKEN_TTL_MS);
    try {
      const user = await this.em.transactional(async (tx) => {
        const created = tx.create(User, {
          username: input.username,
          email: input.email,
          passwordHash,
          verificationToken: verification.hash,
          verificationTokenExpiry: verification.expiresAt,
        });
        await tx.flush();
        this.outbox.record(tx, 'email.verification', {
          v: 1,
          userId: created.id,
          sealedToken: seal(this.config.sessionSecret, verification.token),
        });
        return created;
      });
      this.outbox.kick();
      return user;
    } catch (err) {
      const field = UsersRepository.violatedField(err);
      if (field) throw new ConflictException({ message: CONFLICT_MESSAGE[field] });
      throw err;
    }
  }
}
