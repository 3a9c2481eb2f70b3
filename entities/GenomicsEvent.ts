import { Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
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
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text' }) kind!: string;
  @Column({ type: 'bigint', name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column({ type: 'integer', name: 'workflow_version', nullable: true }) workflowVersion!: number | null;
  @Column({ type: 'text', name: 'update_id', nullable: true }) updateId!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;

  /** Start time of the workflow task that decided the transition (see MathTaskEvent.workflowTaskTime). */
  @Column({ type: 'timestamptz', name: 'workflow_task_time', nullable: true }) workflowTaskTime!: Date | null;

  /** What undoes the transition's record changes (rows it inserted, assignment columns it overwrote). */
  @Column({ type: 'jsonb', nullable: true }) undo!: Record<string, unknown> | null;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_events_actor_id_fkey', 'actor_id')
  actor?: Relation<Member>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_events_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
