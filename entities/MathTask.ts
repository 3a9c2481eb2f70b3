import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { MathDecision, MathReviewState } from '../workflows/mathTask/state';

/**
 * A math task: imported fields (problem, mapping) plus the review projection that only the task's
 * Temporal workflow writes (through the persisting activity).
 */
@Entity({ name: 'math_tasks' })
export class MathTask {
  @PrimaryColumn({ type: 'text', name: 'task_id' })
  taskId!: string;

  @Column({ type: 'text', name: 'run_id' })
  runId!: string;

  @Column({ type: 'text', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text', name: 'question_id' })
  questionId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  problem!: string;

  @Column({ type: 'text', name: 'report_id', nullable: true })
  reportId!: string | null;

  @Column({ type: 'text', name: 'review_state' })
  reviewState!: MathReviewState;

  @Column({ type: 'text', nullable: true })
  decision!: MathDecision | null;

  @Column({ type: 'bigint', name: 'assignee_id', nullable: true })
  assigneeId!: string | null;

  @Column({ type: 'bigint', name: 'client_id', nullable: true })
  clientId!: string | null;

  @Column({ type: 'boolean' })
  archived!: boolean;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', name: 'imported_at' })
  importedAt!: Date;
}
