import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const IMPORT_STATUSES = ['RUNNING', 'SUCCEEDED', 'UNCHANGED', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * One execution of an import workflow (math run or genomics bundle): what it planned, what it uploaded, how it
 * ended. Finished rows are the freshness record of imported data.
 */
@Entity({ name: 'import_runs' })
export class ImportRun {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  service!: 'math' | 'genomics';

  @Column({ type: 'text', name: 'workflow_id' })
  workflowId!: string;

  /** The Temporal run id of the execution; with `workflowId`, unique. */
  @Column({ type: 'text', name: 'workflow_run_id' })
  workflowRunId!: string;

  /** The math run id, or `<batch>/<bundle_id>` of a genomics bundle. */
  @Column({ type: 'text', name: 'subject_id' })
  subjectId!: string;

  @Column({ type: 'text', name: 'bundle_dir' })
  bundleDir!: string;

  /** SHA-256 of the record files (manifest.json and any JSONL beside it) as validated. */
  @Column({ type: 'text', name: 'records_sha256' })
  recordsSha256!: string;

  /** The bundle's identity: records and every file it names. */
  @Column({ type: 'text', name: 'bundle_sha256' })
  bundleSha256!: string;

  @Column({ type: 'text' })
  status!: ImportStatus;

  @Column({ type: 'integer', name: 'files_total' })
  filesTotal!: number;

  @Column({ type: 'integer', name: 'files_uploaded' })
  filesUploaded!: number;

  @Column({ type: 'bigint', name: 'bytes_uploaded' })
  bytesUploaded!: string;

  @Column({ type: 'jsonb' })
  counts!: Record<string, number>;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz', name: 'started_at' })
  startedAt!: Date;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt!: Date | null;
}
