import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM 2.0 provisioning (docs/provisioning.md): the identity service's tokens (only SHA-256 digests of their
 * secrets), the Users and Groups it pushes, which groups hold whom, and one audit row per SCIM request. Members
 * stay in `members`: SCIM writes them through the same code path as `referee members sync`.
 */
export class ScimProvisioning1767600000056 implements MigrationInterface {
  name = 'ScimProvisioning1767600000056';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scim_tokens (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        secret_hash bytea NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE TABLE scim_users (
        id uuid PRIMARY KEY,
        user_name text NOT NULL,
        external_id text,
        active boolean NOT NULL,
        resource jsonb NOT NULL,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX scim_users_user_name_key ON scim_users (lower(user_name));
      CREATE INDEX scim_users_external_id ON scim_users (external_id) WHERE external_id IS NOT NULL;
      CREATE TABLE scim_groups (
        id uuid PRIMARY KEY,
        display_name text NOT NULL,
        external_id text,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX scim_groups_display_name_key ON scim_groups (lower(display_name));
      CREATE TABLE scim_group_members (
        group_id uuid NOT NULL REFERENCES scim_groups (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES scim_users (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, user_id)
      );
      CREATE INDEX scim_group_members_user ON scim_group_members (user_id);
      CREATE TABLE scim_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        token_id uuid REFERENCES scim_tokens (id),
        method text NOT NULL,
        path text NOT NULL,
        status integer NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX scim_audit_token_id ON scim_audit (token_id, id DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE scim_audit; DROP TABLE scim_group_members; DROP TABLE scim_groups; DROP TABLE scim_users;
       DROP TABLE scim_tokens;`,
    );
  }
}
