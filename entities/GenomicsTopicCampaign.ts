import { Entity, PrimaryColumn } from 'typeorm';

/** An imported link between a topic and a campaign it takes part in. */
@Entity({ name: 'genomics_topic_campaigns' })
export class GenomicsTopicCampaign {
  @PrimaryColumn({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @PrimaryColumn({ type: 'text', name: 'campaign_id' })
  campaignId!: string;
}
