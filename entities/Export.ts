import { Check, Column, Entity, Index } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn } from './columns';

export const EXPORT_STATES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'EXPIRED'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];
export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One export of a member's task list (docs/exports.md): its snapshot's size, its progress, its verified file. */
// USING btree (service, member_id, id DESC)
@Index('exports_member', { synchronize: false })
// USING btree (member_id) WHERE (state = 'RUNNING'::text)
@Index('exports_running', { synchronize: false })
// USING btree (expires_at) WHERE (state = ANY (ARRAY['SUCCEEDED'::text, 'FAILED'::text]))
@Index('exports_expiry', { synchronize: false })
@Check('exports_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Check(
  'exports_state_check',
  "(state = ANY (ARRAY['RUNNING'::text, 'SUCCEEDED'::text, 'FAILED'::text, 'EXPIRED'::text]))",
)
@Check('exports_format_check', "(format = ANY (ARRAY['jsonl'::text, 'csv'::text]))")
@Check('exports_rows_in_snapshot_check', '(rows_in_snapshot >= 0)')
@Check('exports_rows_written_check', '(rows_written >= 0)')
@Check('exports_sha256_check', "(sha256 ~ '^[0-9a-f]{64}$'::text)")
@Entity({ name: 'exports' })
export class Export {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) service!: 'math' | 'genomics';

  /** Who started it; only they see it. */
  @Column({ type: 'bigint', name: 'member_id' }) memberId!: string;
  @Column({ type: 'text' }) state!: ExportState;
  @Column({ type: 'text' }) format!: ExportFormat;
  @Column({ type: 'boolean', name: 'include_events' }) includeEvents!: boolean;

  /** The list filters as the caller sent them (validated), shown back on the export. */
  @Column({ type: 'jsonb' }) filters!: Record<string, unknown>;

  /** The CSV columns, in order: the list item's fields (and `events`). */
  @Column({ type: 'text', array: true }) columns!: string[];
  @Column({ type: 'integer', name: 'rows_in_snapshot' }) rowsInSnapshot!: number;
  @Column({ type: 'integer', name: 'rows_written', default: () => "'0'" }) rowsWritten!: number;
  @Column({ type: 'bigint', name: 'bytes_written', default: () => "'0'" }) bytesWritten!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;

  /** The S3 multipart upload, once the first part is on its way. */
  @Column({ type: 'text', name: 'upload_id', nullable: true }) uploadId!: string | null;
  @Column({ type: 'bigint', name: 'size_bytes', nullable: true }) sizeBytes!: string | null;
  @Column({ type: 'text', nullable: true }) sha256!: string | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;

  /** When the snapshot was taken: the export's rows are the list's at this moment. */
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;
}
