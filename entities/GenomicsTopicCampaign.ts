import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsCampaign } from './GenomicsCampaign';

/** An imported link between a topic and a campaign it takes part in. */
@Entity({ name: 'genomics_topic_campaigns' })
export class GenomicsTopicCampaign {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @PrimaryColumn({ type: 'text', name: 'campaign_id' })
  campaignId!: string;

  /** Foreign key genomics_topic_campaigns_campaign_id_fkey. */
  @ManyToOne(() => GenomicsCampaign)
  @JoinColumn({
    name: 'campaign_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_topic_campaigns_campaign_id_fkey',
  })
  campaign?: Relation<GenomicsCampaign>;

  /** Foreign key genomics_topic_campaigns_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_topic_campaigns_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
