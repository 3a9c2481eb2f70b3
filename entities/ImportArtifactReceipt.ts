import { Check, Column, Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { ImportRun } from './ImportRun';

/**
 * A file an import planned to store (as hashed while planning) and, once stored, its receipt: the object key
 * and whether bytes were sent. Staging only: the final upsert reads and deletes them.
 */
@Check(
  'import_artifact_receipts_check',
  '(((stored_at IS NULL) = (object_key IS NULL)) AND ((stored_at IS NULL) = (uploaded IS NULL)))',
)
@Check('import_artifact_receipts_ordinal_check', '(ordinal >= 0)')
@Check('import_artifact_receipts_sha256_check', "(sha256 ~ '^[0-9a-f]{64}$'::text)")
@Check('import_artifact_receipts_size_bytes_check', '(size_bytes >= 0)')
@Entity({ name: 'import_artifact_receipts' })
export class ImportArtifactReceipt {
  @PrimaryColumn({ type: 'bigint', name: 'import_run_id' }) importRunId!: string;

  /** Position in the planned file list; upload chunks are ranges of it. */
  @PrimaryColumn({ type: 'integer' }) ordinal!: number;

  /** The math artifact id, or the genomics file path. */
  @Column({ type: 'text', name: 'artifact_key' }) artifactKey!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ type: 'text', name: 'media_type' }) mediaType!: string;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'bigint', name: 'size_bytes' }) sizeBytes!: string;
  @Column({ type: 'text', name: 'object_key', nullable: true }) objectKey!: string | null;
  @Column({ type: 'boolean', nullable: true }) uploaded!: boolean | null;
  @Column({ type: 'timestamptz', name: 'stored_at', nullable: true }) storedAt!: Date | null;

  @ManyToOne(() => ImportRun, { onDelete: 'CASCADE' })
  @ForeignKey('import_artifact_receipts_import_run_id_fkey', 'import_run_id')
  importRun?: Relation<ImportRun>;
}
