import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Member } from './Member';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsCampaign } from './GenomicsCampaign';

/** A note on a topic (campaign_id null) or on the topic within a campaign. Edits are guarded by body_sha256. */
// USING btree (topic_id, id DESC)
@Index('genomics_notes_topic', { synchronize: false })
@Entity({ name: 'genomics_notes' })
export class GenomicsNote {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text', name: 'campaign_id', nullable: true })
  campaignId!: string | null;

  @Column({ type: 'bigint', name: 'author_id' })
  authorId!: string;

  @Column({ type: 'text' })
  body!: string;

  /** Lowercase hex SHA-256 of the body's UTF-8 bytes. */
  @Column({ type: 'text', name: 'body_sha256' })
  bodySha256!: string;

  @Column({ type: 'integer', name: 'edit_count', default: () => "'0'" })
  editCount!: number;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;

  /** Foreign key genomics_notes_author_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'author_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_notes_author_id_fkey',
  })
  author?: Relation<Member>;

  /** Foreign key genomics_notes_campaign_id_fkey. */
  @ManyToOne(() => GenomicsCampaign)
  @JoinColumn({
    name: 'campaign_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_notes_campaign_id_fkey',
  })
  campaign?: Relation<GenomicsCampaign>;

  /** Foreign key genomics_notes_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_notes_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
