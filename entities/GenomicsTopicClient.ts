import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An imported link between a topic and a client; `client_ids` and `exclusivity` derive from these. */
@Entity({ name: 'genomics_topic_clients' })
export class GenomicsTopicClient {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @PrimaryColumn({ type: 'bigint', name: 'client_id' })
  clientId!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
