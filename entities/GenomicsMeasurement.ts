import { Check, Column, Entity, Index, ManyToOne, type Relation, Unique } from 'typeorm';
import { ForeignKey, IdentityPrimaryColumn, ImportedAtColumn } from './columns';
import { GenomicsTopic } from './GenomicsTopic';

export const MEASUREMENT_SCOPES = ['original_report', 'public_package_rerun'] as const;
export type MeasurementScope = (typeof MEASUREMENT_SCOPES)[number];

/**
 * An imported pass-rate measurement of a topic in one scope. Scopes are never merged; a measurement
 * without evidence or without completed attempts is UNAVAILABLE with null counts (a CHECK enforces it).
 */
@Index('genomics_measurements_topic', ['topicId', 'scope', 'modelId'])
@Check(
  'genomics_measurements_check',
  "(((status = 'MEASURED'::text) AND (completed >= 1) AND ((scientific_passes >= 0) AND (scientific_passes <= completed)) AND (evidence_object_key IS NOT NULL)) OR ((status = 'UNAVAILABLE'::text) AND (scientific_passes IS NULL) AND (completed IS NULL)))",
)
@Check(
  'genomics_measurements_scope_check',
  "(scope = ANY (ARRAY['original_report'::text, 'public_package_rerun'::text]))",
)
@Check('genomics_measurements_status_check', "(status = ANY (ARRAY['MEASURED'::text, 'UNAVAILABLE'::text]))")
@Unique('genomics_measurements_topic_id_source_id_key', ['topicId', 'sourceId'])
@Entity({ name: 'genomics_measurements' })
export class GenomicsMeasurement {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'topic_id' }) topicId!: string;
  @Column({ type: 'text', name: 'source_id' }) sourceId!: string;
  @Column({ type: 'text', name: 'model_id' }) modelId!: string;
  @Column({ type: 'text' }) scope!: MeasurementScope;
  @Column({ type: 'text' }) status!: 'MEASURED' | 'UNAVAILABLE';
  @Column({ type: 'integer', name: 'scientific_passes', nullable: true }) scientificPasses!: number | null;
  @Column({ type: 'integer', nullable: true }) completed!: number | null;
  @Column({ type: 'timestamptz', name: 'measured_at' }) measuredAt!: Date;
  @Column({ type: 'text', name: 'artifact_sha256' }) artifactSha256!: string;
  @Column({ type: 'text', name: 'evidence_object_key', nullable: true }) evidenceObjectKey!: string | null;
  @Column({ type: 'bigint', name: 'evidence_size_bytes', nullable: true }) evidenceSizeBytes!: string | null;
  @Column({ type: 'text', nullable: true }) reason!: string | null;
  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => GenomicsTopic)
  @ForeignKey('genomics_measurements_topic_id_fkey', 'topic_id')
  topic?: Relation<GenomicsTopic>;
}
