import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { IdentityPrimaryColumn } from './columns';

export const IMPORT_STATUSES = ['RUNNING', 'SUCCEEDED', 'UNCHANGED', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * One execution of an import workflow (math run or genomics bundle): what it planned, what it uploaded, how it
 * ended. Finished rows are the freshness record of imported data.
 */
// USING btree (service, finished_at DESC) WHERE (finished_at IS NOT NULL)
@Index('import_runs_finished', { synchronize: false })
// USING btree (service, subject_id, id DESC)
@Index('import_runs_subject', { synchronize: false })
@Check('import_runs_bundle_sha256_check', "(bundle_sha256 ~ '^[0-9a-f]{64}$'::text)")
@Check('import_runs_check', "((status = 'RUNNING'::text) = (finished_at IS NULL))")
@Check('import_runs_files_total_check', '(files_total >= 0)')
@Check('import_runs_records_sha256_check', "(records_sha256 ~ '^[0-9a-f]{64}$'::text)")
@Check('import_runs_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Check(
  'import_runs_status_check',
  "(status = ANY (ARRAY['RUNNING'::text, 'SUCCEEDED'::text, 'UNCHANGED'::text, 'FAILED'::text]))",
)
@Unique('import_runs_workflow_id_workflow_run_id_key', ['workflowId', 'workflowRunId'])
@Entity({ name: 'import_runs' })
export class ImportRun {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) service!: 'math' | 'genomics';
  @Column({ type: 'text', name: 'workflow_id' }) workflowId!: string;

  /** The Temporal run id of the execution; with `workflowId`, unique. */
  @Column({ type: 'text', name: 'workflow_run_id' }) workflowRunId!: string;

  /** The math run id, or `<batch>/<bundle_id>` of a genomics bundle. */
  @Column({ type: 'text', name: 'subject_id' }) subjectId!: string;
  @Column({ type: 'text', name: 'bundle_dir' }) bundleDir!: string;

  /** SHA-256 of the record files (manifest.json and any JSONL beside it) as validated. */
  @Column({ type: 'text', name: 'records_sha256' }) recordsSha256!: string;

  /** The bundle's identity: records and every file it names. */
  @Column({ type: 'text', name: 'bundle_sha256' }) bundleSha256!: string;
  @Column({ type: 'text' }) status!: ImportStatus;
  @Column({ type: 'integer', name: 'files_total' }) filesTotal!: number;
  @Column({ type: 'integer', name: 'files_uploaded', default: () => "'0'" }) filesUploaded!: number;
  @Column({ type: 'bigint', name: 'bytes_uploaded', default: () => "'0'" }) bytesUploaded!: string;
  @Column({ type: 'jsonb', default: () => "'{}'" }) counts!: Record<string, number>;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'timestamptz', name: 'started_at', default: () => 'now()' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;
}
