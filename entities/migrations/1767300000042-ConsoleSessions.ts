import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console sign-in with an OpenID Provider (docs/console.md "Sign-in"): the sessions it opens and the sign-ins
 * under way. Only SHA-256 digests of their browser secrets are stored; the secrets themselves stay in cookies.
 */
export class ConsoleSessions1767300000042 implements MigrationInterface {
  name = 'ConsoleSessions1767300000042';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE console_sessions (
        id uuid PRIMARY KEY,
        secret_hash bytea NOT NULL,
        subject text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ended_at timestamptz,
        ended_reason text,
        CONSTRAINT console_sessions_secret_hash_key UNIQUE (secret_hash)
      );
      CREATE INDEX console_sessions_open_subject ON console_sessions (subject) WHERE ended_at IS NULL;
      CREATE TABLE console_sign_ins (
        secret_hash bytea PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE console_sign_ins; DROP TABLE console_sessions;`);
  }
}
