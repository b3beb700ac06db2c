import { Injectable } from '@nestjs/common';
import { UsersRepository } from '../users/users.repository';

export interface UserContact {
  id: number;
  username: string;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
}

/** The identity service's read API for other services (never its entities). */
@Injectable()
export class IdentityDirectory {
  constructor(private readonly users: UsersRepository) {}

  async findContact(userId: number): Promise<UserContact | null> {
    const user = await this.users.findById(userId);
    if (!user) return null;
    return { id: user.id, username: user.username, email: user.email, isVerified: user.isVerified, isPremium: user.isPremium };
  }

  /**
   * Whether the user is Pro as identity has it right now (read afresh, never from the request's identity
   * map): billing waits on it after a plan change it made. Null when the user is gone.
   */
  async isPremiumNow(userId: number): Promise<boolean | null> {
    const user = await this.users.findByIdAfresh(userId);
    return user ? user.isPremium : null;
  }

  /** The user with this e-mail address (any case), or null (the operator's plan command). */
  async findContactByEmail(email: string): Promise<UserContact | null> {
    const user = await this.users.findByEmail(email);
    return user ? this.findContact(user.id) : null;
  }

  /** The token of a sealed e-mail link is still the account's current one (not replaced, not spent). */
  async isCurrentToken(userId: number, kind: 'verification' | 'reset', tokenHash: string): Promise<boolean> {
    const user = await this.users.findById(userId);
    if (!user) return false;
    const [hash, expiry] =
      kind === 'verification' ? [user.verificationToken, user.verificationTokenExpiry] : [user.resetPasswordToken, user.resetPasswordTokenExpiry];
    return hash === tokenHash && !!expiry && expiry.getTime() > Date.now();
  }
}
