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
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'bigint', name: 'assignment_id' })
  assignmentId!: string;

  @Column({ type: 'bigint', name: 'reviewer_id' })
  reviewerId!: string;

  @Column({ type: 'text' })
  verdict!: ReviewVerdict;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key genomics_reviews_assignment_id_fkey. */
  @ManyToOne(() => GenomicsAssignment)
  @JoinColumn({
    name: 'assignment_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_reviews_assignment_id_fkey',
  })
  assignment?: Relation<GenomicsAssignment>;

  /** Foreign key genomics_reviews_reviewer_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'reviewer_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_reviews_reviewer_id_fkey',
  })
  reviewer?: Relation<Member>;

  /** Foreign key genomics_reviews_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_reviews_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
