import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A supplementary file uploaded to a task: the receipt of its bytes in S3. Removal hides it, keeping the bytes. */
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

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  @Column({ type: 'bigint', name: 'deleted_by', nullable: true })
  deletedBy!: string | null;
}
