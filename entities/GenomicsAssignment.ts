import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AssignmentStatus } from '../workflows/genomicsTask/state';

/** A reviewer assignment of a topic; at most one is ACTIVE per topic. Written by the task workflow only. */
@Entity({ name: 'genomics_assignments' })
export class GenomicsAssignment {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'bigint', name: 'reviewer_id' })
  reviewerId!: string;

  @Column({ type: 'text' })
  status!: AssignmentStatus;

  @Column({ type: 'text' })
  instructions!: string;

  @Column({ type: 'timestamptz', name: 'due_at', nullable: true })
  dueAt!: Date | null;

  @Column({ type: 'bigint', name: 'assigned_by', nullable: true })
  assignedBy!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', name: 'submitted_at', nullable: true })
  submittedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'closed_at', nullable: true })
  closedAt!: Date | null;
}
