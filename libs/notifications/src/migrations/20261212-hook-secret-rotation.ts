import { Migration } from '@mikro-orm/migrations';

/**
 * A hook's secret can be rotated (`POST /api/v1/hooks/{id}/rotate-secret`): the secret before the rotation
 * (sealed) keeps signing beside the new one until `previous_secret_until` (24 hours), as a page webhook's does.
 */
export class HookSecretRotation20261212 extends Migration {
  override async up() {
    this.addSql('alter table notifications.hooks add column previous_secret varchar(1000) null, add column previous_secret_until timestamptz null');
  }
}
