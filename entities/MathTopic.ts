import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A topic points at its latest imported run. */
@Entity({ name: 'math_topics' })
export class MathTopic {
  @PrimaryColumn({ type: 'text', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', name: 'latest_run_id' })
  latestRunId!: string;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
