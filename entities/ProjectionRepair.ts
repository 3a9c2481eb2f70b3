import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ServiceName } from './types';

/** One task projection `ops reconcile --repair` rewrote from its workflow: what differed, at which versions. */
// USING btree (service, subject_id, id DESC)
@Index('projection_repairs_subject', { synchronize: false })
@Check('projection_repairs_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Entity({ name: 'projection_repairs' })
export class ProjectionRepair {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  service!: ServiceName;

  /** The math task id or the genomics topic uid. */
  @Column({ type: 'text', name: 'subject_id' })
  subjectId!: string;

  @Column({ type: 'text', name: 'workflow_id' })
  workflowId!: string;

  @Column({ type: 'integer', name: 'workflow_version' })
  workflowVersion!: number;

  @Column({ type: 'integer', name: 'projection_version' })
  projectionVersion!: number;

  /** `[{field, projection, workflow}]` before the repair. */
  @Column({ type: 'jsonb' })
  differences!: Array<{ field: string; projection: unknown; workflow: unknown }>;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;
}
