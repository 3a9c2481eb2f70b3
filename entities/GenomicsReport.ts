import { Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { ForeignKey, IdentityPrimaryColumn, ImportedAtColumn } from './columns';
import { GenomicsTopic } from './GenomicsTopic';

/** An imported report of a topic, stored content-addressed in S3. */
// USING btree (topic_id, id DESC)
@Index('genomics_reports_topic', { synchronize: false })
@Unique('genomics_reports_topic_id_source_id_key', ['topicId', 'sourceId'])
@Entity({ name: 'genomics_reports' })
export class GenomicsReport {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;

  /** The bundle's id of the record; re-imports update in place. */
  @Column({ type: 'text', name: 'source_id' }) sourceId!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', name: 'media_type' }) mediaType!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;
  @Column({ type: 'bigint', name: 'size_bytes' }) sizeBytes!: string;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'timestamptz', name: 'reported_at', nullable: true }) reportedAt!: Date | null;
  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_reports_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
