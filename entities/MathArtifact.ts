import { Check, Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey, ImportedAtColumn } from './columns';
import { MathRun } from './MathRun';

export const ARTIFACT_KINDS = ['REPORT', 'CHECKPOINT', 'PUBLIC_INPUT', 'PUBLIC_TASKS', 'EVIDENCE'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];
/** PRIVATE and PROVENANCE artifacts are never downloadable nor listed in run paths. */
export const ARTIFACT_CLASSES = ['STANDARD', 'PRIVATE', 'PROVENANCE'] as const;
export type ArtifactClass = (typeof ARTIFACT_CLASSES)[number];

/** An imported file, stored content-addressed in S3 with the size and SHA-256 measured at upload. */
@Index('math_artifacts_run', ['runId'])
@Check(
  'math_artifacts_class_check',
  "(class = ANY (ARRAY['STANDARD'::text, 'PRIVATE'::text, 'PROVENANCE'::text]))",
)
@Check(
  'math_artifacts_kind_check',
  "(kind = ANY (ARRAY['REPORT'::text, 'CHECKPOINT'::text, 'PUBLIC_INPUT'::text, 'PUBLIC_TASKS'::text, 'EVIDENCE'::text]))",
)
@Entity({ name: 'math_artifacts' })
export class MathArtifact {
  @PrimaryColumn({ type: 'text', name: 'artifact_id' }) artifactId!: string;
  @Column({ type: 'text', name: 'run_id' }) runId!: string;
  @Column({ type: 'text' }) kind!: ArtifactKind;
  @Column({ type: 'text' }) class!: ArtifactClass;
  @Column({ type: 'text', name: 'source_path' }) sourcePath!: string;
  @Column({ type: 'text' }) filename!: string;
  @Column({ type: 'text', name: 'media_type' }) mediaType!: string;
  @Column({ type: 'text', name: 'object_key' }) objectKey!: string;
  @Column({ type: 'bigint', name: 'size_bytes' }) sizeBytes!: string;
  @Column({ type: 'text' }) sha256!: string;
  @ImportedAtColumn() importedAt!: Date;

  @ManyToOne(() => MathRun)
  @ForeignKey('math_artifacts_run_id_fkey', 'run_id', 'runId')
  run?: Relation<MathRun>;
}
