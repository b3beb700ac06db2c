/** A user as another service may look them up. */
export interface DirectoryUser {
  id: number;
  email: string;
  /** The plan as the user's requests carry it (`SignedInUser.isPremium`). */
  isPremium: boolean;
}

/**
 * Who a user is, for what starts outside a request's session: a billing call waiting until the caller's
 * requests carry the plan it just changed, the operator's command finding a user by e-mail address. The
 * identity service answers it; the process that composes identity with another service provides it (the
 * gateway, the operator's command line), like the `SessionLookup` port, so no service imports identity.
 */
export abstract class UserDirectory {
  /** The plan the user's next request will carry, read afresh (not from any request's cache); null when the user is gone. */
  abstract isPremiumNow(userId: number): Promise<boolean | null>;
  /** The user with this e-mail address (any case), or null. */
  abstract findByEmail(email: string): Promise<DirectoryUser | null>;
}
