import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const MEASUREMENT_SCOPES = ['original_report', 'public_package_rerun'] as const;
export type MeasurementScope = (typeof MEASUREMENT_SCOPES)[number];

/**
 * An imported pass-rate measurement of a topic in one scope. Scopes are never merged; a measurement
 * without evidence or without completed attempts is UNAVAILABLE with null counts (a CHECK enforces it).
 */
@Entity({ name: 'genomics_measurements' })
export class GenomicsMeasurement {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'topic_id' })
  topicId!: string;

  @Column({ type: 'text', name: 'source_id' })
  sourceId!: string;

  @Column({ type: 'text', name: 'model_id' })
  modelId!: string;

  @Column({ type: 'text' })
  scope!: MeasurementScope;

  @Column({ type: 'text' })
  status!: 'MEASURED' | 'UNAVAILABLE';

  @Column({ type: 'integer', name: 'scientific_passes', nullable: true })
  scientificPasses!: number | null;

  @Column({ type: 'integer', nullable: true })
  completed!: number | null;

  @Column({ type: 'timestamptz', name: 'measured_at' })
  measuredAt!: Date;

  @Column({ type: 'text', name: 'artifact_sha256' })
  artifactSha256!: string;

  @Column({ type: 'text', name: 'evidence_object_key', nullable: true })
  evidenceObjectKey!: string | null;

  @Column({ type: 'bigint', name: 'evidence_size_bytes', nullable: true })
  evidenceSizeBytes!: string | null;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'timestamptz', name: 'imported_at' })
  importedAt!: Date;
}
