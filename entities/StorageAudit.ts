import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import type { ServiceName } from './types';

/**
 * A stored object that failed verification (missing, or not the recorded size and SHA-256) on download or by
 * `ops verify-storage`, or an object in the bucket that no row names (orphaned: no service or expected digest).
 */
// USING btree (subject_type, subject_id, id DESC)
@Index('storage_audit_subject', { synchronize: false })
@Check(
  'storage_audit_expected_known',
  "((kind = 'object_orphaned'::text) OR ((service IS NOT NULL) AND (expected_size_bytes IS NOT NULL) AND (expected_sha256 IS NOT NULL)))",
)
@Check(
  'storage_audit_kind_check',
  "(kind = ANY (ARRAY['object_missing'::text, 'object_mismatch'::text, 'object_orphaned'::text]))",
)
@Check('storage_audit_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Entity({ name: 'storage_audit' })
export class StorageAudit {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text', nullable: true }) service!: ServiceName | null;
  @Column({ type: 'text' }) kind!: 'object_missing' | 'object_mismatch' | 'object_orphaned';

  /** `artifact`, `attachment`, `bug_report_picture`, a genomics record type, or `object` for an orphan. */
  @Column({ type: 'text', name: 'subject_type' }) subjectType!: string;
  @Column({ type: 'text', name: 'subject_id' }) subjectId!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;
  @Column({ type: 'bigint', name: 'expected_size_bytes', nullable: true }) expectedSizeBytes!: string | null;
  @Column({ type: 'text', name: 'expected_sha256', nullable: true }) expectedSha256!: string | null;
  @Column({ type: 'bigint', name: 'actual_size_bytes', nullable: true }) actualSizeBytes!: string | null;
  @Column({ type: 'text', name: 'actual_sha256', nullable: true }) actualSha256!: string | null;
  @Column({ type: 'bigint', name: 'member_id', nullable: true }) memberId!: string | null;
  @Column({ type: 'uuid', name: 'key_id', nullable: true }) keyId!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('storage_audit_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
