import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
} from 'typeorm';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsRevision } from './GenomicsRevision';

/** An imported publication of a topic (optionally of one package revision), stored content-addressed in S3. */
// USING btree (topic_id, id DESC)
@Index('genomics_publications_topic', { synchronize: false })
@Unique('genomics_publications_topic_id_source_id_key', ['topicId', 'sourceId'])
@Entity({ name: 'genomics_publications' })
export class GenomicsPublication {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  /** The bundle's id of the record; re-imports update in place. */
  @Column({ type: 'text', name: 'source_id' })
  sourceId!: string;

  @Column({ type: 'bigint', name: 'revision_id', nullable: true })
  revisionId!: string | null;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', name: 'media_type' })
  mediaType!: string;

  @Column({ type: 'text', name: 'object_key' })
  objectKey!: string;

  @Column({ type: 'bigint', name: 'size_bytes' })
  sizeBytes!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'timestamptz', name: 'published_at', nullable: true })
  publishedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'imported_at', default: () => 'now()' })
  importedAt!: Date;

  /** Foreign key genomics_publications_revision_id_fkey. */
  @ManyToOne(() => GenomicsRevision)
  @JoinColumn({
    name: 'revision_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_publications_revision_id_fkey',
  })
  revision?: Relation<GenomicsRevision>;

  /** Foreign key genomics_publications_topic_id_fkey. */
  @ManyToOne(() => GenomicsTopic)
  @JoinColumn({
    name: 'topic_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'genomics_publications_topic_id_fkey',
  })
  topic?: Relation<GenomicsTopic>;
}
