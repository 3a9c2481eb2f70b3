import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds an in-progress Idempotency-Key claim (docs/decisions-system.md, "Idempotency-Key after a crash"): the
 * liveness session of the claiming API process, as its backend's pid and start time (a pid alone is reused). A
 * claim whose holder's session PostgreSQL no longer has is taken over at once; one without a holder waits for
 * its lease.
 */
export class IdempotencyClaimHolders1767200000041 implements MigrationInterface {
  name = 'IdempotencyClaimHolders1767200000041';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE idempotency_records ADD COLUMN holder_pid integer, ADD COLUMN holder_started timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE idempotency_records DROP COLUMN holder_pid, DROP COLUMN holder_started;
    `);
  }
}
