import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exports (docs/exports.md): one row per export, the rows of its snapshot as the list presents them (taken in one
 * statement, so one MVCC snapshot, and durable, so a worker that dies resumes from it), and the parts of its
 * multipart upload with the running SHA-256 state after each, so a resumed export hashes the whole file.
 */
export class Exports1767600000051 implements MigrationInterface {
  name = 'Exports1767600000051';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        member_id bigint NOT NULL,
        state text NOT NULL CHECK (state IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'EXPIRED')),
        format text NOT NULL CHECK (format IN ('jsonl', 'csv')),
        include_events boolean NOT NULL,
        filters jsonb NOT NULL,
        columns text[] NOT NULL,
        rows_in_snapshot integer NOT NULL CHECK (rows_in_snapshot >= 0),
        rows_written integer NOT NULL DEFAULT 0 CHECK (rows_written >= 0),
        bytes_written bigint NOT NULL DEFAULT 0,
        object_key text NOT NULL,
        upload_id text,
        size_bytes bigint,
        sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX exports_member ON exports (service, member_id, id DESC);
      CREATE INDEX exports_running ON exports (member_id) WHERE state = 'RUNNING';
      CREATE INDEX exports_expiry ON exports (expires_at) WHERE state IN ('SUCCEEDED', 'FAILED');

      CREATE TABLE export_rows (
        export_id bigint NOT NULL,
        ordinal integer NOT NULL,
        task_key text NOT NULL,
        row_version bigint NOT NULL,
        item json NOT NULL,
        PRIMARY KEY (export_id, ordinal)
      );

      CREATE TABLE export_parts (
        export_id bigint NOT NULL,
        part_number integer NOT NULL CHECK (part_number BETWEEN 1 AND 10000),
        etag text NOT NULL,
        size_bytes integer NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        last_ordinal integer NOT NULL,
        hash_state bytea NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (export_id, part_number)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE export_parts; DROP TABLE export_rows; DROP TABLE exports;');
  }
}
