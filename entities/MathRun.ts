import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ImportedAtColumn } from './columns';

/** A completed, imported research run (never a live job). */
// USING btree (imported_at DESC, run_id)
@Index('math_runs_imported', { synchronize: false })
// USING gin (title gin_trgm_ops)
@Index('math_runs_title_trgm', { synchronize: false })
@Entity({ name: 'math_runs' })
export class MathRun {
  @PrimaryColumn({ type: 'text', name: 'run_id' }) runId!: string;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', nullable: true }) source!: string | null;
  @Column({ type: 'timestamptz', name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true }) completedAt!: Date | null;
  @ImportedAtColumn() importedAt!: Date;

  /** Digest of the bundle manifest: an unchanged re-import is recognised and changes nothing. */
  @Column({ type: 'text', name: 'bundle_sha256' }) bundleSha256!: string;
}
