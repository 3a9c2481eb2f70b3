import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import { MathTask } from './MathTask';
import { ApiKey } from './ApiKey';

/** A supplementary file uploaded to a task: the receipt of its bytes in S3. Removal hides it, keeping the bytes. */
// USING btree (task_id, id DESC) WHERE (deleted_at IS NULL)
@Index('math_attachments_task_active', { synchronize: false })
@Check('math_attachments_sha256_check', "(sha256 ~ '^[0-9a-f]{64}$'::text)")
@Check('math_attachments_size_bytes_check', '((size_bytes >= 1) AND (size_bytes <= 16777216))')
@Entity({ name: 'math_attachments' })
export class MathAttachment {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text', name: 'task_id' }) taskId!: string;
  @Column({ type: 'bigint', name: 'uploader_id' }) uploaderId!: string;
  @Column({ type: 'uuid', name: 'uploader_key_id' }) uploaderKeyId!: string;

  /** Optional name sent by the uploader (`X-Filename`), already checked to be a plain file name. */
  @Column({ type: 'text', nullable: true }) filename!: string | null;
  @Column({ type: 'text', name: 'media_type' }) mediaType!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;
  @Column({ type: 'bigint', name: 'size_bytes' }) sizeBytes!: string;
  @Column({ type: 'text' }) sha256!: string;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
  @Column({ type: 'bigint', name: 'deleted_by', nullable: true }) deletedBy!: string | null;

  @ManyToOne(() => Member)
  @ForeignKey('math_attachments_deleted_by_fkey', 'deleted_by')
  deletedByMember?: Relation<Member>;

  @ManyToOne(() => MathTask)
  @ForeignKey('math_attachments_task_id_fkey', 'task_id', 'taskId')
  task?: Relation<MathTask>;

  @ManyToOne(() => Member)
  @ForeignKey('math_attachments_uploader_id_fkey', 'uploader_id')
  uploader?: Relation<Member>;

  @ManyToOne(() => ApiKey)
  @ForeignKey('math_attachments_uploader_key_id_fkey', 'uploader_key_id')
  uploaderKey?: Relation<ApiKey>;
}
