import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Operator tools (`ops reconcile`, `ops verify-storage`): where a long check resumes after an interruption,
 * one audit row per projection the reconciler rewrote, and orphaned objects in the storage audit (an object
 * no row names has no service, expected size or SHA-256).
 */
export class OperatorTools1766000000000 implements MigrationInterface {
  name = 'OperatorTools1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operator_checkpoints (
        name text PRIMARY KEY,
        position text NOT NULL,
        totals jsonb NOT NULL DEFAULT '{}',
        started_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE projection_repairs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        subject_id text NOT NULL,
        workflow_id text NOT NULL,
        workflow_version integer NOT NULL,
        projection_version integer NOT NULL,
        differences jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX projection_repairs_subject ON projection_repairs (service, subject_id, id DESC);

      ALTER TABLE storage_audit DROP CONSTRAINT storage_audit_kind_check;
      ALTER TABLE storage_audit
        ADD CONSTRAINT storage_audit_kind_check
          CHECK (kind IN ('object_missing', 'object_mismatch', 'object_orphaned')),
        ALTER COLUMN service DROP NOT NULL,
        ALTER COLUMN expected_size_bytes DROP NOT NULL,
        ALTER COLUMN expected_sha256 DROP NOT NULL,
        ADD CONSTRAINT storage_audit_expected_known CHECK (
          kind = 'object_orphaned'
          OR (service IS NOT NULL AND expected_size_bytes IS NOT NULL AND expected_sha256 IS NOT NULL)
        );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM storage_audit WHERE kind = 'object_orphaned';
      ALTER TABLE storage_audit
        DROP CONSTRAINT storage_audit_expected_known,
        DROP CONSTRAINT storage_audit_kind_check,
        ALTER COLUMN service SET NOT NULL,
        ALTER COLUMN expected_size_bytes SET NOT NULL,
        ALTER COLUMN expected_sha256 SET NOT NULL,
        ADD CONSTRAINT storage_audit_kind_check CHECK (kind IN ('object_missing', 'object_mismatch'));
      DROP TABLE projection_repairs, operator_checkpoints;
    `);
  }
}
