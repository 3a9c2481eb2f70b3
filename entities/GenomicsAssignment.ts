import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';
import type { AssignmentStatus } from '../workflows/genomicsTask/state';

/** A reviewer assignment of a topic; at most one is ACTIVE per topic. Written by the task workflow only. */
@Index('genomics_assignments_one_active', ['topicId'], { unique: true, where: "(status = 'ACTIVE'::text)" })
@Index('genomics_assignments_reviewer_visible', ['reviewerId', 'topicId'], {
  where: "(status = ANY (ARRAY['ACTIVE'::text, 'SUBMITTED'::text]))",
})
// USING btree (submitted_at) WHERE submitted_at IS NOT NULL
@Index('genomics_assignments_submitted', { synchronize: false })
// USING btree (topic_id, id DESC)
@Index('genomics_assignments_topic', { synchronize: false })
@Check(
  'genomics_assignments_status_check',
  "(status = ANY (ARRAY['ACTIVE'::text, 'SUBMITTED'::text, 'CANCELLED'::text, 'EXPIRED'::text]))",
)
@Entity({ name: 'genomics_assignments' })
export class GenomicsAssignment {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'bigint', name: 'reviewer_id' }) reviewerId!: string;
  @Column({ type: 'text' }) status!: AssignmentStatus;
  @Column({ type: 'text', default: () => "''" }) instructions!: string;
  @Column({ type: 'timestamptz', name: 'due_at', nullable: true }) dueAt!: Date | null;
  @Column({ type: 'bigint', name: 'assigned_by', nullable: true }) assignedBy!: string | null;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
  @Column({ type: 'timestamptz', name: 'submitted_at', nullable: true }) submittedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'closed_at', nullable: true }) closedAt!: Date | null;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_assignments_assigned_by_fkey', 'assigned_by')
  assignedByMember?: Relation<Member>;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_assignments_reviewer_id_fkey', 'reviewer_id')
  reviewer?: Relation<Member>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_assignments_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
