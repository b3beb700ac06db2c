import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException, raw } from '@mikro-orm/postgresql';
import { User } from './user.entity';

export type UniqueField = 'email' | 'username';

/** The identity service's only door to the users table. */
@Injectable()
export class UsersRepository {
  constructor(private readonly em: EntityManager) {}

  findById(id: number, em: EntityManager = this.em): Promise<User | null> {
    return em.findOne(User, { id });
  }

  /** The stored user, read in a context of its own (not the request's identity map, which may hold an older copy). */
  findByIdAfresh(id: number): Promise<User | null> {
    return this.em.fork().findOne(User, { id });
  }

  findByEmail(email: string, em: EntityManager = this.em): Promise<User | null> {
    return em.findOne(User, { [raw('lower(email)')]: email.toLowerCase() });
  }

  async takenField(username: string, email: string): Promise<UniqueField | null> {
    const rows: { email_taken: boolean; username_taken: boolean }[] = await this.em.execute(
      `select exists(select 1 from identity.users where lower(email) = lower(?)) as email_taken,
              exists(select 1 from identity.users where lower(username) = lower(?)) as username_taken`,
      [email, username],
    );
    if (rows[0]?.email_taken) return 'email';
    if (rows[0]?.username_taken) return 'username';
    return null;
  }

  findByVerificationToken(tokenHash: string, em: EntityManager = this.em): Promise<User | null> {
    return em.findOne(User, { verificationToken: tokenHash, verificationTokenExpiry: { $gt: new Date() } });
  }

  findByEmailChangeToken(tokenHash: string, em: EntityManager = this.em): Promise<User | null> {
    return em.findOne(User, { emailChangeToken: tokenHash, emailChangeTokenExpiry: { $gt: new Date() } });
  }

  /** Whether another account than `exceptUserId` has this address or this username (any case). */
  async takenByAnother(exceptUserId: number, field: UniqueField, value: string): Promise<boolean> {
    const rows: { taken: boolean }[] = await this.em.execute(
      `select exists(select 1 from identity.users where lower(${field}) = lower(?) and id <> ?) as taken`,
      [value, exceptUserId],
    );
    return !!rows[0]?.taken;
  }

  findByResetToken(tokenHash: string, em: EntityManager = this.em): Promise<User | null> {
    return em.findOne(User, { resetPasswordToken: tokenHash, resetPasswordTokenExpiry: { $gt: new Date() } });
  }

  /** Which unique rule an insert broke, if that is why it failed. */
  static violatedField(err: unknown): UniqueField | null {
    if (!(err instanceof UniqueConstraintViolationException)) return null;
    return /username/.test(err.message) ? 'username' : 'email';
  }
}
