import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A bug report with its optional screenshot, whose type was judged by its bytes. */
@Entity({ name: 'math_bug_reports' })
export class MathBugReport {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'member_id' })
  memberId!: string;

  @Column({ type: 'uuid', name: 'key_id' })
  keyId!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', name: 'page_path', nullable: true })
  pagePath!: string | null;

  @Column({ type: 'text', name: 'picture_media_type', nullable: true })
  pictureMediaType!: string | null;

  @Column({ type: 'text', name: 'picture_object_key', nullable: true })
  pictureObjectKey!: string | null;

  @Column({ type: 'bigint', name: 'picture_size_bytes', nullable: true })
  pictureSizeBytes!: string | null;

  @Column({ type: 'text', name: 'picture_sha256', nullable: true })
  pictureSha256!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
