import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change that can end an API key's validity notifies `referee_auth_changes` (at commit), so each
 * API process drops what its key cache holds (api/kernel/keyCache.ts): revocation and the other
 * authentication columns of `api_keys`, any change to a member (enabled flag, role), deletions. Updates of
 * `last_used_at` alone notify nothing.
 */
export class AuthChangeNotifications1765000000001 implements MigrationInterface {
  name = 'AuthChangeNotifications1765000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_LEVEL = 'STATEMENT' THEN
          PERFORM pg_notify('referee_auth_changes', 'all');
        ELSIF TG_TABLE_NAME = 'api_keys' THEN
          PERFORM pg_notify('referee_auth_changes', 'key:' || OLD.id::text);
        ELSE
          PERFORM pg_notify('referee_auth_changes', 'member:' || OLD.id::text);
        END IF;
        RETURN NULL;
      END
      $$;
    `);
    await q.query(`
      CREATE TRIGGER api_keys_auth_change
        AFTER UPDATE OF id, service, member_id, role, scopes, secret_hash, expires_at, revoked_at OR DELETE
        ON api_keys FOR EACH ROW EXECUTE FUNCTION notify_auth_change()`);
    await q.query(`
      CREATE TRIGGER members_auth_change AFTER UPDATE OR DELETE ON members
        FOR EACH ROW EXECUTE FUNCTION notify_auth_change()`);
    await q.query(`
      CREATE TRIGGER api_keys_auth_truncate AFTER TRUNCATE ON api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change()`);
    await q.query(`
      CREATE TRIGGER members_auth_truncate AFTER TRUNCATE ON members
        FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER members_auth_truncate ON members`);
    await q.query(`DROP TRIGGER api_keys_auth_truncate ON api_keys`);
    await q.query(`DROP TRIGGER members_auth_change ON members`);
    await q.query(`DROP TRIGGER api_keys_auth_change ON api_keys`);
    await q.query(`DROP FUNCTION notify_auth_change()`);
  }
}
