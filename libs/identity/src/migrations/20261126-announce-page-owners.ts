import { Migration } from '@mikro-orm/migrations';

/**
 * Once announced every user to the pages service's copy of owners, by writing queue messages into the
 * outbox table by name. That copy now learns each owner from their own saves and from billing's
 * 'plan.changed', and no migration writes queue messages: this one is kept, empty, because databases that
 * ran it list it as applied (on a new database there was never a user to announce).
 */
export class AnnouncePageOwners20261126 extends Migration {
  override async up() {
    // Intentionally nothing (see above).
  }
}
