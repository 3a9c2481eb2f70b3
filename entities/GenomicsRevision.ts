import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A package revision of a topic for a campaign. Started (IN_PROGRESS) through the task workflow; completed
 * by an import that brings its package file (object key, size and SHA-256 recorded at upload).
 */
@Entity({ name: 'genomics_revisions' })
export class GenomicsRevision {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text', name: 'campaign_id' })
  campaignId!: string;

  @Column({ type: 'integer' })
  number!: number;

  @Column({ type: 'text' })
  status!: 'IN_PROGRESS' | 'COMPLETED';

  @Column({ type: 'text' })
  notes!: string;

  @Column({ type: 'bigint', name: 'started_by', nullable: true })
  startedBy!: string | null;

  @Column({ type: 'text', name: 'source_id', nullable: true })
  sourceId!: string | null;

  @Column({ type: 'text', name: 'object_key', nullable: true })
  objectKey!: string | null;

  @Column({ type: 'bigint', name: 'size_bytes', nullable: true })
  sizeBytes!: string | null;

  @Column({ type: 'text', nullable: true })
  sha256!: string | null;

  @Column({ type: 'text', name: 'media_type', nullable: true })
  mediaType!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true })
  completedAt!: Date | null;
}
