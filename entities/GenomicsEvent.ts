import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
} from 'typeorm';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';

/**
 * One change of a topic: every mutation writes exactly one, in the transaction of the change. Workflow
 * transitions carry their workflow version and update id; (topic_id, update_id) is unique, so a retried
 * activity or a timer never writes twice.
 */
// USING btree (created_at): the events of a dashboard's window
@Index('genomics_events_created', { synchronize: false })
// USING btree (topic_id, id DESC)
@Index('genomics_events_topic', { synchronize: false })
// UNIQUE USING btree (topic_id, workflow_version) WHERE workflow_version IS NOT NULL: one write per workflow version
@Index('genomics_events_topic_workflow_version', { synchronize: false })
@Unique('genomics_events_topic_id_update_id_key', ['topicId', 'updateId'])
@Entity({ name: 'genomics_events' })
export class GenomicsEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'bigint', name: 'actor_id', nullable: true })
  actorId!: string | null;

  @Column({ type: 'integer', name: 'workflow_version', nullable: true })
  workflowVersion!: number | null;

  @Column({ type: 'text', name: 'update_id', nullable: true })
  updateId!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;

  /** Start time of the workflow task that decided the transition (see MathTaskEvent.workflowTaskTime). */
  @Column({ type: 'timestamptz', name: 'workflow_task_time', nullable: true })
  workflowTaskTime!: Date | null;

  /** What undoes the transition's record changes (rows it inserted, assignment columns it overwrote). */
  @Column({ type: 'jsonb', nullable: true })
  undo!: Record<string, unknown> | null;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key genomics_events_actor_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'actor_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_events_actor_id_fkey',
  })
  actor?: Relation<Member>;

  /** Foreign key genomics_events_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_events_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
