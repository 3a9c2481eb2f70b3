import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Math files: imported per-task evidence, task attachments, bug reports, the storage integrity audit and
 * the per-key file-transfer leases that make the concurrency limit hold across API processes.
 */
export class MathFiles1732600000000 implements MigrationInterface {
  name = 'MathFiles1732600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE math_task_evidence (
        task_id text PRIMARY KEY REFERENCES math_tasks (task_id),
        run_id text NOT NULL REFERENCES math_runs (run_id),
        report_id text NOT NULL REFERENCES math_reports (report_id),
        rubric jsonb,
        review jsonb,
        quality_gate jsonb,
        imported_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE math_attachments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        task_id text NOT NULL REFERENCES math_tasks (task_id),
        uploader_id bigint NOT NULL REFERENCES members (id),
        uploader_key_id uuid NOT NULL REFERENCES api_keys (id),
        filename text,
        media_type text NOT NULL,
        object_key text NOT NULL,
        size_bytes bigint NOT NULL CHECK (size_bytes BETWEEN 1 AND 16777216),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        deleted_by bigint REFERENCES members (id)
      );
      CREATE INDEX math_attachments_task_active ON math_attachments (task_id, id DESC) WHERE deleted_at IS NULL;

      CREATE TABLE math_bug_reports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        member_id bigint NOT NULL REFERENCES members (id),
        key_id uuid NOT NULL REFERENCES api_keys (id),
        description text NOT NULL,
        page_path text,
        picture_media_type text,
        picture_object_key text,
        picture_size_bytes bigint,
        picture_sha256 text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (
          (picture_object_key IS NULL AND picture_media_type IS NULL AND picture_size_bytes IS NULL AND picture_sha256 IS NULL)
          OR (picture_object_key IS NOT NULL AND picture_media_type IS NOT NULL AND picture_size_bytes IS NOT NULL
              AND picture_sha256 IS NOT NULL)
        )
      );
      CREATE INDEX math_bug_reports_member ON math_bug_reports (member_id, id DESC);

      CREATE TABLE storage_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        kind text NOT NULL CHECK (kind IN ('object_missing', 'object_mismatch')),
        subject_type text NOT NULL,
        subject_id text NOT NULL,
        object_key text NOT NULL,
        expected_size_bytes bigint NOT NULL,
        expected_sha256 text NOT NULL,
        actual_size_bytes bigint,
        actual_sha256 text,
        member_id bigint REFERENCES members (id),
        key_id uuid,
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX storage_audit_subject ON storage_audit (subject_type, subject_id, id DESC);

      CREATE TABLE file_transfer_leases (
        lease_id uuid PRIMARY KEY,
        key_id uuid NOT NULL REFERENCES api_keys (id),
        direction text NOT NULL CHECK (direction IN ('upload', 'download')),
        operation_id text NOT NULL,
        acquired_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX file_transfer_leases_key ON file_transfer_leases (key_id, expires_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE file_transfer_leases, storage_audit, math_bug_reports, math_attachments, math_task_evidence;
    `);
  }
}
