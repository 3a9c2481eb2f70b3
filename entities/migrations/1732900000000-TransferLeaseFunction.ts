import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Taking a file-transfer slot in one round trip: the per-key lock, the purge of expired leases, the count and
 * the insert run inside PostgreSQL instead of as six statements of a client transaction (which held the
 * key's lock across every round trip, so concurrent downloads of one key queued behind each other).
 */
export class TransferLeaseFunction1732900000000 implements MigrationInterface {
  name = 'TransferLeaseFunction1732900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION acquire_file_transfer_lease(
        p_lease_id uuid, p_key_id uuid, p_direction text, p_operation_id text, p_limit integer, p_lease_seconds integer
      ) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('referee:file-transfer:' || p_key_id::text, 0));
        DELETE FROM file_transfer_leases WHERE key_id = p_key_id AND expires_at < now();
        IF (SELECT count(*) FROM file_transfer_leases WHERE key_id = p_key_id) >= p_limit THEN
          RETURN false;
        END IF;
        INSERT INTO file_transfer_leases (lease_id, key_id, direction, operation_id, expires_at)
        VALUES (p_lease_id, p_key_id, p_direction, p_operation_id, now() + make_interval(secs => p_lease_seconds));
        RETURN true;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION acquire_file_transfer_lease(uuid, uuid, text, text, integer, integer)');
  }
}
