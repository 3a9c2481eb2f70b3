import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsClient } from './GenomicsClient';

/** An imported link between a topic and a client; `client_ids` and `exclusivity` derive from these. */
@Entity({ name: 'genomics_topic_clients' })
export class GenomicsTopicClient {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @PrimaryColumn({ type: 'bigint', name: 'client_id' })
  clientId!: string;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key genomics_topic_clients_client_id_fkey. */
  @ManyToOne(() => GenomicsClient)
  @JoinColumn({
    name: 'client_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_topic_clients_client_id_fkey',
  })
  client?: Relation<GenomicsClient>;

  /** Foreign key genomics_topic_clients_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_topic_clients_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
