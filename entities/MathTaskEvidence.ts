import { Column, Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey, ImportedAtColumn } from './columns';
import { MathTask } from './MathTask';
import { MathRun } from './MathRun';
import { MathReport } from './MathReport';

/**
 * One task's evidence as imported from its report (rubric, review, quality gate). Kept per task, so tasks
 * sharing a report never see each other's entries.
 */
@Entity({ name: 'math_task_evidence' })
export class MathTaskEvidence {
  @PrimaryColumn({ type: 'text', name: 'task_id' }) taskId!: string;
  @Column({ type: 'text', name: 'run_id' }) runId!: string;

  /** The report the evidence was imported for; shown only while the task still maps to it. */
  @Column({ type: 'text', name: 'report_id' }) reportId!: string;
  @Column({ type: 'jsonb', nullable: true }) rubric!: Record<string, unknown> | null;
  @Column({ type: 'jsonb', nullable: true }) review!: Record<string, unknown> | null;

  @Column({ type: 'jsonb', name: 'quality_gate', nullable: true })
  qualityGate!: Record<string, unknown> | null;

  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => MathReport)
  @ForeignKey('math_task_evidence_report_id_fkey', 'report_id', 'reportId')
  report?: Relation<MathReport>;

  @ManyToOne(() => MathRun)
  @ForeignKey('math_task_evidence_run_id_fkey', 'run_id', 'runId')
  run?: Relation<MathRun>;

  @ManyToOne(() => MathTask)
  @ForeignKey('math_task_evidence_task_id_fkey', 'task_id', 'taskId')
  task?: Relation<MathTask>;
}
