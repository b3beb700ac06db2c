import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { PasswordHasher } from '../users/password-hasher';
import { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';

/**
 * The account a development database starts with, so a first `npm start` shows the product at work. Its
 * password is fixed and documented rather than random: identity keeps only a hash, so a random password could
 * be shown once and never again, while a developer signs in again after every restart (and from the docs, a
 * script or a browser journey). That is safe only because no production install ever makes it (the gateway
 * composes the seed only with PLINK_DEMO_SEED, which the config refuses in production).
 */
export const DEMO_CREATOR = { username: 'demo', email: 'demo@plink.test', password: 'plink-demo' } as const;

/** The demo creator as the other services' seed steps need them (a signed-in user's fields) and its password. */
export interface DemoCreator {
  id: number;
  username: string;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
  password: string;
}

/** Serialises the "no account yet?" check and the insert of processes starting together on one database. */
const SEED_LOCK = 'identity.demo-creator';

/** Identity's part of the demo seed: the account, made verified with an argon2id hash like any other. */
@Injectable()
export class IdentityDemo {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * Makes the demo creator when the database has no account yet (Plink's own accounts, ids below 1, do not
   * count) and answers it; answers null when there is one. Of several processes starting at once on an empty
   * database, one makes it: the check and the insert run under a transaction-scoped advisory lock, so the
   * others find the account once it is committed (and the unique e-mail and username would refuse a second).
   */
  async createOnEmptyDatabase(): Promise<DemoCreator | null> {
    // The cheap answer of every later start, before a password is hashed.
    if (await this.hasAccounts(this.em.fork())) return null;
    const passwordHash = await this.hasher.hash(DEMO_CREATOR.password);
    const user = await this.em.fork().transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [SEED_LOCK]);
      if (await this.hasAccounts(tx)) return null;
      const created = tx.create(User, { username: DEMO_CREATOR.username, email: DEMO_CREATOR.email, passwordHash, isVerified: true });
      await tx.flush();
      return created;
    });
    return user && toDemoCreator(user);
  }

  /**
   * The demo creator while it still opens with the demo password (its address and password unchanged since
   * it was made), else null: what `npm start` may print as its sign-in.
   */
  async stillSigningIn(): Promise<DemoCreator | null> {
    const user = await this.users.findByEmail(DEMO_CREATOR.email, this.em.fork());
    if (!user?.isVerified || !(await this.hasher.verify(user.passwordHash, DEMO_CREATOR.password))) return null;
    return toDemoCreator(user);
  }

  private async hasAccounts(em: EntityManager): Promise<boolean> {
    const [row] = await em.execute<{ found: boolean }[]>('select exists(select 1 from identity.users where id >= 1) as found');
    return !!row?.found;
  }
}

function toDemoCreator(user: User): DemoCreator {
  return { id: user.id, username: user.username, email: user.email, isVerified: user.isVerified, isPremium: user.isPremium, password: DEMO_CREATOR.password };
}
