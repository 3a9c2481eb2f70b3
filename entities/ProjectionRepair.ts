import { Check, Column, Entity, Index } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn } from './columns';
import type { ServiceName } from './types';

/** One task projection rewritten from its workflow: what differed, at which versions, and why. */
// USING btree (service, subject_id, id DESC)
@Index('projection_repairs_subject', { synchronize: false })
@Check(
  'projection_repairs_cause_check',
  "(cause = ANY (ARRAY['reconcile'::text, 'unacknowledged_transition'::text]))",
)
@Check('projection_repairs_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Entity({ name: 'projection_repairs' })
export class ProjectionRepair {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) service!: ServiceName;

  /** The math task id or the genomics topic uid. */
  @Column({ type: 'text', name: 'subject_id' }) subjectId!: string;
  @Column({ type: 'text', name: 'workflow_id' }) workflowId!: string;
  @Column({ type: 'integer', name: 'workflow_version' }) workflowVersion!: number;
  @Column({ type: 'integer', name: 'projection_version' }) projectionVersion!: number;

  /** `[{field, projection, workflow}]` before the repair. */
  @Column({ type: 'jsonb' }) differences!: Array<{ field: string; projection: unknown; workflow: unknown }>;

  /**
   * `reconcile`: `ops reconcile --repair` rewrote the projection from its workflow. `unacknowledged_transition`: a
   * transition committed inside a workflow task that never completed (no client was told) was replaced by the
   * workflow's next one; `differences` holds the replaced transition.
   */
  @Column({ type: 'text', default: () => "'reconcile'" }) cause!: 'reconcile' | 'unacknowledged_transition';
  @CreatedAtColumn() createdAt!: Date;
}
