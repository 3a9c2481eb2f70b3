import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change of a topic: every mutation writes exactly one, in the transaction of the change. Workflow
 * transitions carry their workflow version and update id; (topic_id, update_id) is unique, so a retried
 * activity or a timer never writes twice.
 */
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

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
