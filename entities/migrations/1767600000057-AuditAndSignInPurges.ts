import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the API's periodic purges (api/kernel/housekeeping.ts): sign-ins past their expiry and identity
 * audit records past their retention are found by time, not by a scan of the table.
 */
export class AuditAndSignInPurges1767600000057 implements MigrationInterface {
  name = 'AuditAndSignInPurges1767600000057';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX console_sign_ins_expires_at ON console_sign_ins (expires_at);
      CREATE INDEX identity_audit_created_at ON identity_audit (created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX identity_audit_created_at; DROP INDEX console_sign_ins_expires_at;`);
  }
}
