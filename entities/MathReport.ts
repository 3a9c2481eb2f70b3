import { Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { MathRun } from './MathRun';
import { MathArtifact } from './MathArtifact';

/** A report file that tasks map to; several tasks may share one. */
@Index('math_reports_run', ['runId'])
@Entity({ name: 'math_reports' })
export class MathReport {
  @PrimaryColumn({ type: 'text', name: 'report_id' }) reportId!: string;
  @Column({ type: 'text', name: 'run_id' }) runId!: string;
  @Column({ type: 'text', name: 'artifact_id' }) artifactId!: string;

  /** The identifier the report had in the source system. */
  @Column({ type: 'text', name: 'source_id', nullable: true }) sourceId!: string | null;

  @ManyToOne(() => MathArtifact)
  @ForeignKey('math_reports_artifact_id_fkey', 'artifact_id', 'artifactId')
  artifact?: Relation<MathArtifact>;

  @ManyToOne(() => MathRun)
  @ForeignKey('math_reports_run_id_fkey', 'run_id', 'runId')
  run?: Relation<MathRun>;
}
