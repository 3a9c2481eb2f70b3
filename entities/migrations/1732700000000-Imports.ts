import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Imports at scale: one `import_runs` row per import workflow execution (its status, counts and timestamps,
 * which the monitor reads for freshness) and the staging table of the files it plans and stores. Upload
 * activities record a receipt per stored file; the final upsert reads them back and clears them.
 */
export class Imports1732700000000 implements MigrationInterface {
  name = 'Imports1732700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE import_runs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        workflow_id text NOT NULL,
        workflow_run_id text NOT NULL,
        subject_id text NOT NULL,
        bundle_dir text NOT NULL,
        records_sha256 text NOT NULL CHECK (records_sha256 ~ '^[0-9a-f]{64}$'),
        bundle_sha256 text NOT NULL CHECK (bundle_sha256 ~ '^[0-9a-f]{64}$'),
        status text NOT NULL CHECK (status IN ('RUNNING', 'SUCCEEDED', 'UNCHANGED', 'FAILED')),
        files_total integer NOT NULL CHECK (files_total >= 0),
        files_uploaded integer NOT NULL DEFAULT 0,
        bytes_uploaded bigint NOT NULL DEFAULT 0,
        counts jsonb NOT NULL DEFAULT '{}',
        error text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        UNIQUE (workflow_id, workflow_run_id),
        CHECK ((status = 'RUNNING') = (finished_at IS NULL))
      );
      CREATE INDEX import_runs_finished ON import_runs (service, finished_at DESC) WHERE finished_at IS NOT NULL;
      CREATE INDEX import_runs_subject ON import_runs (service, subject_id, id DESC);

      CREATE TABLE import_artifact_receipts (
        import_run_id bigint NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
        ordinal integer NOT NULL CHECK (ordinal >= 0),
        artifact_key text NOT NULL,
        path text NOT NULL,
        media_type text NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        object_key text,
        uploaded boolean,
        stored_at timestamptz,
        PRIMARY KEY (import_run_id, ordinal),
        CHECK ((stored_at IS NULL) = (object_key IS NULL) AND (stored_at IS NULL) = (uploaded IS NULL))
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE import_artifact_receipts, import_runs');
  }
}
