import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Request rate limits shared by every API process: one token-bucket row per API key (or per member for
 * dashboard assertions). Processes add their admitted requests in batches (see api/kernel/rateLimit.ts).
 */
export class RateLimits1732800000000 implements MigrationInterface {
  name = 'RateLimits1732800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_buckets (
        subject text PRIMARY KEY,
        tat timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      COMMENT ON COLUMN rate_limit_buckets.tat IS
        'Theoretical arrival time (GCRA): the bucket is full again at this instant; tat - now() is its debt.';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limit_buckets');
  }
}
