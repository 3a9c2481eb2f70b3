import { Check, Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { CreatedAtColumn, ForeignKey, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsCampaign } from './GenomicsCampaign';

/**
 * A package revision of a topic for a campaign. Started (IN_PROGRESS) through the task workflow; completed
 * by an import that brings its package file (object key, size and SHA-256 recorded at upload).
 */
@Index('genomics_revisions_one_open_per_campaign', ['topicId', 'campaignId'], {
  unique: true,
  where: "(status = 'IN_PROGRESS'::text)",
})
// USING btree (topic_id, id DESC)
@Index('genomics_revisions_topic', { synchronize: false })
@Check(
  'genomics_revisions_check',
  "((status = 'COMPLETED'::text) = ((object_key IS NOT NULL) AND (size_bytes IS NOT NULL) AND (sha256 IS NOT NULL)))",
)
@Check('genomics_revisions_number_check', '(number >= 1)')
@Check('genomics_revisions_status_check', "(status = ANY (ARRAY['IN_PROGRESS'::text, 'COMPLETED'::text]))")
@Unique('genomics_revisions_topic_id_number_key', ['topicId', 'number'])
@Unique('genomics_revisions_topic_id_source_id_key', ['topicId', 'sourceId'])
@Entity({ name: 'genomics_revisions' })
export class GenomicsRevision {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text', name: 'campaign_id' }) campaignId!: string;
  @Column({ type: 'integer' }) number!: number;
  @Column({ type: 'text' }) status!: 'IN_PROGRESS' | 'COMPLETED';
  @Column({ type: 'text', default: () => "''" }) notes!: string;
  @Column({ type: 'bigint', name: 'started_by', nullable: true }) startedBy!: string | null;
  @Column({ type: 'text', name: 'source_id', nullable: true }) sourceId!: string | null;
  @Column({ type: 'text', name: 'object_key', nullable: true }) objectKey!: string | null;
  @Column({ type: 'bigint', name: 'size_bytes', nullable: true }) sizeBytes!: string | null;
  @Column({ type: 'text', nullable: true }) sha256!: string | null;
  @Column({ type: 'text', name: 'media_type', nullable: true }) mediaType!: string | null;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true }) completedAt!: Date | null;

  @ManyToOne(() => GenomicsCampaign)
  @ForeignKey('genomics_revisions_campaign_id_fkey', 'campaign_id')
  campaign?: Relation<GenomicsCampaign>;

  @ManyToOne(() => Member)
  @ForeignKey('genomics_revisions_started_by_fkey', 'started_by')
  startedByMember?: Relation<Member>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_revisions_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
