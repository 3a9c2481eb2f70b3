import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAtColumn } from './columns';

/** Where an interrupted operator check (`reconcile:<service>`, `verify-storage`) resumes, and its totals so far. */
@Entity({ name: 'operator_checkpoints' })
export class OperatorCheckpoint {
  @PrimaryColumn({ type: 'text' }) name!: string;

  /** The last key fully checked (task id, topic id or object key). */
  @Column({ type: 'text' }) position!: string;
  @Column({ type: 'jsonb', default: () => "'{}'" }) totals!: Record<string, number>;
  @Column({ type: 'timestamptz', name: 'started_at', default: () => 'now()' }) startedAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
