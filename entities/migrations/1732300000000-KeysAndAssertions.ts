import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Single-use record of genomics dashboard assertions, and the index behind the workspace key lists. */
export class KeysAndAssertions1732300000000 implements MigrationInterface {
  name = 'KeysAndAssertions1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_assertion_uses (
        jti text PRIMARY KEY,
        member_id bigint NOT NULL REFERENCES members (id),
        method text NOT NULL,
        path text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX dashboard_assertion_uses_expires ON dashboard_assertion_uses (expires_at);

      CREATE INDEX api_keys_service_created ON api_keys (service, created_at DESC, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX api_keys_service_created;
      DROP TABLE dashboard_assertion_uses;
    `);
  }
}
