import { Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsCampaign } from './GenomicsCampaign';

/** A note on a topic (campaign_id null) or on the topic within a campaign. Edits are guarded by body_sha256. */
// USING btree (topic_id, id DESC)
@Index('genomics_notes_topic', { synchronize: false })
@Entity({ name: 'genomics_notes' })
export class GenomicsNote {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text', name: 'campaign_id', nullable: true }) campaignId!: string | null;
  @Column({ type: 'bigint', name: 'author_id' }) authorId!: string;
  @Column({ type: 'text' }) body!: string;

  /** Lowercase hex SHA-256 of the body's UTF-8 bytes. */
  @Column({ type: 'text', name: 'body_sha256' }) bodySha256!: string;
  @Column({ type: 'integer', name: 'edit_count', default: () => "'0'" }) editCount!: number;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_notes_author_id_fkey', 'author_id')
  author?: Relation<Member>;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_notes_campaign_id_fkey', 'campaign_id')
  campaign?: Relation<GenomicsCampaign>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_notes_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
