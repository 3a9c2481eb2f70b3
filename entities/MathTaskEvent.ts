import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One applied workflow action of a task; (task_id, version) is unique, so an action is never applied twice. */
@Entity({ name: 'math_task_events' })
export class MathTaskEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text', name: 'task_id' })
  taskId!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'bigint', name: 'actor_id', nullable: true })
  actorId!: string | null;

  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  @Column({ type: 'text', name: 'from_state' })
  fromState!: string;

  @Column({ type: 'text', name: 'to_state' })
  toState!: string;

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  /** The Temporal update id that applied it (the Idempotency-Key when the client sent one). */
  @Column({ type: 'text', name: 'update_id' })
  updateId!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
