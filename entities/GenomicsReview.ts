import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsAssignment } from './GenomicsAssignment';
import type { ReviewVerdict } from '../workflows/genomicsTask/state';

/** One piece of reviewer feedback (a comment or a verdict) on an assignment; its id is the `feedbackId`. */
@Index('genomics_reviews_assignment', ['assignmentId'])
// USING btree (topic_id, id DESC)
@Index('genomics_reviews_topic', { synchronize: false })
@Check(
  'genomics_reviews_verdict_check',
  "(verdict = ANY (ARRAY['COMMENT'::text, 'READY_AS_IS'::text, 'MINOR_REPAIR'::text, 'MAJOR_REPAIR'::text, 'REJECTED'::text]))",
)
@Entity({ name: 'genomics_reviews' })
export class GenomicsReview {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'bigint', name: 'assignment_id' }) assignmentId!: string;
  @Column({ type: 'bigint', name: 'reviewer_id' }) reviewerId!: string;
  @Column({ type: 'text' }) verdict!: ReviewVerdict;
  @Column({ type: 'text' }) body!: string;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => GenomicsAssignment)
  @ForeignKey('genomics_reviews_assignment_id_fkey', 'assignment_id')
  assignment?: Relation<GenomicsAssignment>;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_reviews_reviewer_id_fkey', 'reviewer_id')
  reviewer?: Relation<Member>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_reviews_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
