import { Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey } from './columns';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsClient } from './GenomicsClient';

/** An imported link between a topic and a client; `client_ids` and `exclusivity` derive from these. */
@Entity({ name: 'genomics_topic_clients' })
export class GenomicsTopicClient {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @PrimaryColumn({ type: 'bigint', name: 'client_id' }) clientId!: string;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => GenomicsClient)
  @ForeignKey('genomics_topic_clients_client_id_fkey', 'client_id')
  client?: Relation<GenomicsClient>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_topic_clients_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
