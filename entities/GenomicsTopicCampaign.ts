import { Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsCampaign } from './GenomicsCampaign';

/** An imported link between a topic and a campaign it takes part in. */
@Entity({ name: 'genomics_topic_campaigns' })
export class GenomicsTopicCampaign {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @PrimaryColumn({ type: 'text', name: 'campaign_id' }) campaignId!: string;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_topic_campaigns_campaign_id_fkey', 'campaign_id')
  campaign?: Relation<GenomicsCampaign>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_topic_campaigns_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
