import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A completed, imported research run (never a live job). */
@Entity({ name: 'math_runs' })
export class MathRun {
  @PrimaryColumn({ type: 'text', name: 'run_id' })
  runId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', nullable: true })
  source!: string | null;

  @Column({ type: 'timestamptz', name: 'started_at', nullable: true })
  startedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true })
  completedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'imported_at' })
  importedAt!: Date;

  /** Digest of the bundle manifest: an unchanged re-import is recognised and changes nothing. */
  @Column({ type: 'text', name: 'bundle_sha256' })
  bundleSha256!: string;
}
