import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A report file that tasks map to; several tasks may share one. */
@Entity({ name: 'math_reports' })
export class MathReport {
  @PrimaryColumn({ type: 'text', name: 'report_id' })
  reportId!: string;

  @Column({ type: 'text', name: 'run_id' })
  runId!: string;

  @Column({ type: 'text', name: 'artifact_id' })
  artifactId!: string;

  /** The identifier the report had in the source system. */
  @Column({ type: 'text', name: 'source_id', nullable: true })
  sourceId!: string | null;
}
