import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One uploaded part of an export's multipart upload, recorded after S3 accepted it: where the next part starts
 * (`last_ordinal`) and the SHA-256 state of the file up to its end, so a resumed export goes on from it.
 */
@Check('export_parts_part_number_check', '((part_number >= 1) AND (part_number <= 10000))')
@Check('export_parts_sha256_check', "(sha256 ~ '^[0-9a-f]{64}$'::text)")
@Entity({ name: 'export_parts' })
export class ExportPart {
  @PrimaryColumn({ type: 'bigint', name: 'export_id' }) exportId!: string;
  @PrimaryColumn({ type: 'integer', name: 'part_number' }) partNumber!: number;
  @Column({ type: 'text' }) etag!: string;
  @Column({ type: 'integer', name: 'size_bytes' }) sizeBytes!: number;

  /** The part's own SHA-256 (sent to S3 as its checksum). */
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'integer', name: 'last_ordinal' }) lastOrdinal!: number;

  /** The whole file's SHA-256 state after this part (storage/resumableSha256.ts). */
  @Column({ type: 'bytea', name: 'hash_state' }) hashState!: Buffer;
  @Column({ type: 'timestamptz', name: 'recorded_at', default: () => 'now()' }) recordedAt!: Date;
}
