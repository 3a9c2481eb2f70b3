import { Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey, UpdatedAtColumn } from './columns';
import { MathRun } from './MathRun';

/** A topic points at its latest imported run. */
@Index('math_topics_latest_run', ['latestRunId'])
// USING gin (title gin_trgm_ops)
@Index('math_topics_title_trgm', { synchronize: false })
// USING gin (topic_id gin_trgm_ops)
@Index('math_topics_topic_id_trgm', { synchronize: false })
// USING btree (updated_at DESC, topic_id)
@Index('math_topics_updated', { synchronize: false })
@Entity({ name: 'math_topics' })
export class MathTopic {
  @PrimaryColumn({ type: 'text', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', name: 'latest_run_id' }) latestRunId!: string;
  @UpdatedAtColumn() updatedAt!: Date;

  @ManyToOne(() => MathRun)
  @ForeignKey('math_topics_latest_run_id_fkey', 'latest_run_id', 'runId')
  latestRun?: Relation<MathRun>;
}
