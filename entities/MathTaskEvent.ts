import { Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import { MathTask } from './MathTask';

/** One applied workflow action of a task; (task_id, version) is unique, so an action is never applied twice. */
// USING btree (task_id, version DESC) INCLUDE (created_at) WHERE action = 'assign'
@Index('math_task_events_assign', { synchronize: false })
// USING btree (created_at DESC, id DESC)
@Index('math_task_events_created', { synchronize: false })
@Unique('math_task_events_task_id_version_key', ['taskId', 'version'])
@Entity({ name: 'math_task_events' })
export class MathTaskEvent {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text', name: 'task_id' }) taskId!: string;
  @Column({ type: 'integer' }) version!: number;
  @Column({ type: 'text' }) action!: string;
  @Column({ type: 'bigint', name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column({ type: 'text', nullable: true }) comment!: string | null;
  @Column({ type: 'text', name: 'from_state' }) fromState!: string;
  @Column({ type: 'text', name: 'to_state' }) toState!: string;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;

  /** The Temporal update id that applied it (the Idempotency-Key when the client sent one). */
  @Column({ type: 'text', name: 'update_id' }) updateId!: string;

  /**
   * Start time of the workflow task that decided it (Temporal's clock): orders competing workflow tasks of the task's
   * workflow when a transition written inside a workflow task must replace one its workflow never recorded.
   * Null for events no task workflow wrote (rows seeded outside Temporal).
   */
  @Column({ type: 'timestamptz', name: 'workflow_task_time', nullable: true }) workflowTaskTime!: Date | null;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('math_task_events_actor_id_fkey', 'actor_id')
  actor?: Relation<Member>;

  @ManyToOne(() => MathTask)
  @ForeignKey('math_task_events_task_id_fkey', 'task_id', 'taskId')
  task?: Relation<MathTask>;
}
