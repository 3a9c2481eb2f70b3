import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A note on a topic (campaign_id null) or on the topic within a campaign. Edits are guarded by body_sha256. */
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

  @Column({ type: 'integer', name: 'edit_count' })
  editCount!: number;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
