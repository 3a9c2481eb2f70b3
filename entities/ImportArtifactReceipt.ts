import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A file an import planned to store (as hashed while planning) and, once stored, its receipt: the object key
 * and whether bytes were sent. Staging only: the final upsert reads and deletes them.
 */
@Entity({ name: 'import_artifact_receipts' })
export class ImportArtifactReceipt {
  @PrimaryColumn({ type: 'bigint', name: 'import_run_id' })
  importRunId!: string;

  /** Position in the planned file list; upload chunks are ranges of it. */
  @PrimaryColumn({ type: 'integer' })
  ordinal!: number;

  /** The math artifact id, or the genomics file path. */
  @Column({ type: 'text', name: 'artifact_key' })
  artifactKey!: string;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'text', name: 'media_type' })
  mediaType!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'bigint', name: 'size_bytes' })
  sizeBytes!: string;

  @Column({ type: 'text', name: 'object_key', nullable: true })
  objectKey!: string | null;

  @Column({ type: 'boolean', nullable: true })
  uploaded!: boolean | null;

  @Column({ type: 'timestamptz', name: 'stored_at', nullable: true })
  storedAt!: Date | null;
}
