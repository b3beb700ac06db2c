import { Injectable } from '@nestjs/common';
import { UserDirectory, type DirectoryUser } from '@plink/contracts';
import { UsersRepository } from '../users/users.repository';

export interface UserContact {
  id: number;
  username: string;
  email: string;
  isVerified: boolean;
  isPremium: boolean;
}

/**
 * The identity service's read API for other services (never its entities); also its answer to the
 * contracts' {@link UserDirectory} port, for services that must not import identity.
 */
@Injectable()
export class IdentityDirectory extends UserDirectory {
  constructor(private readonly users: UsersRepository) {
    super();
  }

  async findContact(userId: number): Promise<UserContact | null> {
    const user = await this.users.findById(userId);
    if (!user) return null;
    return { id: user.id, username: user.username, email: user.email, isVerified: user.isVerified, isPremium: user.isPremium };
  }

  /**
   * Whether the user is Pro as identity has it right now (read afresh, never from the request's identity
   * map): billing waits on it after a plan change it made. Null when the user is gone.
   */
  override async isPremiumNow(userId: number): Promise<boolean | null> {
    const user = await this.users.findByIdAfresh(userId);
    return user ? user.isPremium : null;
  }

  /** The user with this e-mail address (any case), or null (the operator's plan command). */
  override async findByEmail(email: string): Promise<DirectoryUser | null> {
    const user = await this.users.findByEmail(email);
    return user ? { id: user.id, email: user.email, isPremium: user.isPremium } : null;
  }
}
