import { Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey, ImportedAtColumn, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import { MathTopic } from './MathTopic';
import { MathRun } from './MathRun';
import { MathReport } from './MathReport';
import { MathClient } from './MathClient';
import type { MathDecision, MathReviewState } from '../workflows/mathTask/state';

/**
 * A math task: imported fields (problem, mapping) plus the review projection that only the task's
 * Temporal workflow writes (through the persisting activity).
 */
@Index('math_tasks_archived', ['updatedAt', 'taskId'], { where: 'archived' })
@Index('math_tasks_assignee_updated', ['assigneeId', 'updatedAt', 'taskId'])
@Index('math_tasks_client', ['clientId', 'updatedAt', 'taskId'])
@Index('math_tasks_decision', ['decision', 'updatedAt', 'taskId'])
// USING gin (problem gin_trgm_ops)
@Index('math_tasks_problem_trgm', { synchronize: false })
@Index('math_tasks_question', ['questionId'])
// USING gin (question_id gin_trgm_ops)
@Index('math_tasks_question_trgm', { synchronize: false })
@Index('math_tasks_release', ['updatedAt', 'taskId'], {
  where:
    "((NOT archived) AND (review_state = 'COMPLETED'::text) AND (decision = 'ACCEPTED'::text) AND (report_id IS NOT NULL))",
})
@Index('math_tasks_report', ['reportId'])
@Index('math_tasks_review_state', ['reviewState', 'updatedAt', 'taskId'])
@Index('math_tasks_run', ['runId'])
// USING gin (task_id gin_trgm_ops)
@Index('math_tasks_task_id_trgm', { synchronize: false })
// USING gin (title gin_trgm_ops)
@Index('math_tasks_title_trgm', { synchronize: false })
@Index('math_tasks_topic', ['topicId', 'taskId'])
@Index('math_tasks_unassigned', ['updatedAt', 'taskId'], { where: '(assignee_id IS NULL)' })
@Index('math_tasks_unlinked', ['updatedAt', 'taskId'], { where: '(client_id IS NULL)' })
@Index('math_tasks_updated', ['updatedAt', 'taskId'])
@Entity({ name: 'math_tasks' })
export class MathTask {
  @PrimaryColumn({ type: 'text', name: 'task_id' }) taskId!: string;
  @Column({ type: 'text', name: 'run_id' }) runId!: string;
  @Column({ type: 'text', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text', name: 'question_id' }) questionId!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text' }) problem!: string;
  @Column({ type: 'text', name: 'report_id', nullable: true }) reportId!: string | null;

  @Column({ type: 'text', name: 'review_state', default: () => "'UNASSIGNED'" })
  reviewState!: MathReviewState;

  @Column({ type: 'text', nullable: true }) decision!: MathDecision | null;
  @Column({ type: 'bigint', name: 'assignee_id', nullable: true }) assigneeId!: string | null;
  @Column({ type: 'bigint', name: 'client_id', nullable: true }) clientId!: string | null;
  @Column({ type: 'boolean', default: () => 'false' }) archived!: boolean;
  @Column({ type: 'integer', default: () => "'0'" }) version!: number;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('math_tasks_assignee_id_fkey', 'assignee_id')
  assignee?: Relation<Member>;

  @ManyToOne(() => MathClient)
  @ForeignKey('math_tasks_client_id_fkey', 'client_id')
  client?: Relation<MathClient>;

  @ManyToOne(() => MathReport)
  @ForeignKey('math_tasks_report_id_fkey', 'report_id', 'reportId')
  report?: Relation<MathReport>;

  @ManyToOne(() => MathRun)
  @ForeignKey('math_tasks_run_id_fkey', 'run_id', 'runId')
  run?: Relation<MathRun>;

  @ManyToOne(() => MathTopic)
  @ForeignKey('math_tasks_topic_id_fkey', 'topic_id', 'topicId')
  topic?: Relation<MathTopic>;
}
