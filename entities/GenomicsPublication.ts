import { Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { ForeignKey, IdentityPrimaryColumn, ImportedAtColumn } from './columns';
import { GenomicsTopic } from './GenomicsTopic';
import { GenomicsRevision } from './GenomicsRevision';

/** An imported publication of a topic (optionally of one package revision), stored content-addressed in S3. */
// USING btree (topic_id, id DESC)
@Index('genomics_publications_topic', { synchronize: false })
@Unique('genomics_publications_topic_id_source_id_key', ['topicId', 'sourceId'])
@Entity({ name: 'genomics_publications' })
export class GenomicsPublication {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;

  /** The bundle's id of the record; re-imports update in place. */
  @Column({ type: 'text', name: 'source_id' }) sourceId!: string;
  @Column({ type: 'bigint', name: 'revision_id', nullable: true }) revisionId!: string | null;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', name: 'media_type' }) mediaType!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;
  @Column({ type: 'bigint', name: 'size_bytes' }) sizeBytes!: string;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'timestamptz', name: 'published_at', nullable: true }) publishedAt!: Date | null;
  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => GenomicsRevision)
  @ForeignKey('genomics_publications_revision_id_fkey', 'revision_id')
  revision?: Relation<GenomicsRevision>;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_publications_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
