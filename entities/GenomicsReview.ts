import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ReviewVerdict } from '../workflows/genomicsTask/state';

/** One piece of reviewer feedback (a comment or a verdict) on an assignment; its id is the `feedbackId`. */
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

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
