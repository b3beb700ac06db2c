import type { UserDto } from '@plink/contracts';
import type { User } from './user.entity';

/** The only shape in which a user leaves the server: no hash, no token. */
export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isVerified: user.isVerified,
    isPremium: user.isPremium,
    createdAt: user.createdAt.toISOString(),
    // A change whose link expired is no longer pending: the owner may ask again.
    pendingEmail: user.pendingEmail && user.emailChangeTokenExpiry && user.emailChangeTokenExpiry.getTime() > Date.now() ? user.pendingEmail : null,
  };
}
