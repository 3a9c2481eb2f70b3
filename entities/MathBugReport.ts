import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import { ApiKey } from './ApiKey';

/** A bug report with its optional screenshot, whose type was judged by its bytes. */
// USING btree (member_id, id DESC)
@Index('math_bug_reports_member', { synchronize: false })
@Check(
  'math_bug_reports_check',
  '(((picture_object_key IS NULL) AND (picture_media_type IS NULL) AND (picture_size_bytes IS NULL) AND (picture_sha256 IS NULL)) OR ((picture_object_key IS NOT NULL) AND (picture_media_type IS NOT NULL) AND (picture_size_bytes IS NOT NULL) AND (picture_sha256 IS NOT NULL)))',
)
@Entity({ name: 'math_bug_reports' })
export class MathBugReport {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'member_id' }) memberId!: string;
  @Column({ type: 'uuid', name: 'key_id' }) keyId!: string;
  @Column({ type: 'text' }) description!: string;
  @Column({ type: 'text', name: 'page_path', nullable: true }) pagePath!: string | null;
  @Column({ type: 'text', name: 'picture_media_type', nullable: true }) pictureMediaType!: string | null;
  @Column({ type: 'text', name: 'picture_object_key', nullable: true }) pictureObjectKey!: string | null;
  @Column({ type: 'bigint', name: 'picture_size_bytes', nullable: true }) pictureSizeBytes!: string | null;
  @Column({ type: 'text', name: 'picture_sha256', nullable: true }) pictureSha256!: string | null;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => ApiKey)
  @ForeignKey('math_bug_reports_key_id_fkey', 'key_id')
  key?: Relation<ApiKey>;

  @ManyToOne(() => Member)
  @ForeignKey('math_bug_reports_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
