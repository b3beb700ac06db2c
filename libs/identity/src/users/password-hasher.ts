import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's `Algorithm.Argon2id`, a const enum that isolatedModules cannot import). */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2id password hashes (OWASP's recommended parameters). */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, so unknown e-mails cannot be told apart by timing. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('plink-timing-equaliser');
    await this.verify(await this.dummy, password);
    return false;
  }
}
