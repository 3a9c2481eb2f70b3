import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
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
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text', name: 'task_id' })
  taskId!: string;

  @Column({ type: 'bigint', name: 'uploader_id' })
  uploaderId!: string;

  @Column({ type: 'uuid', name: 'uploader_key_id' })
  uploaderKeyId!: string;

  /** Optional name sent by the uploader (`X-Filename`), already checked to be a plain file name. */
  @Column({ type: 'text', nullable: true })
  filename!: string | null;

  @Column({ type: 'text', name: 'media_type' })
  mediaType!: string;

  @Column({ type: 'text', name: 'object_key' })
  objectKey!: string;

  @Column({ type: 'bigint', name: 'size_bytes' })
  sizeBytes!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  @Column({ type: 'bigint', name: 'deleted_by', nullable: true })
  deletedBy!: string | null;

  /** Foreign key math_attachments_deleted_by_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'deleted_by',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'math_attachments_deleted_by_fkey',
  })
  deletedByMember?: Relation<Member>;

  /** Foreign key math_attachments_task_id_fkey. */
  @ManyToOne(() => MathTask)
  @JoinColumn({
    name: 'task_id',
    referencedColumnName: 'taskId',
    foreignKeyConstraintName: 'math_attachments_task_id_fkey',
  })
  task?: Relation<MathTask>;

  /** Foreign key math_attachments_uploader_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'uploader_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'math_attachments_uploader_id_fkey',
  })
  uploader?: Relation<Member>;

  /** Foreign key math_attachments_uploader_key_id_fkey. */
  @ManyToOne(() => ApiKey)
  @JoinColumn({
    name: 'uploader_key_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'math_attachments_uploader_key_id_fkey',
  })
  uploaderKey?: Relation<ApiKey>;
}
