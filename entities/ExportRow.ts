import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row of an export's snapshot, as the task list presents it, in the list's order (`ordinal` from 1). Deleted
 * once the export's file is complete.
 */
@Entity({ name: 'export_rows' })
export class ExportRow {
  @PrimaryColumn({ type: 'bigint', name: 'export_id' }) exportId!: string;
  @PrimaryColumn({ type: 'integer' }) ordinal!: number;

  /** The task (math task_id) or topic (genomics topic id) the row is of. */
  @Column({ type: 'text', name: 'task_key' }) taskKey!: string;

  /** What bounds its events at the snapshot: the math task's version, the genomics topic's last event id. */
  @Column({ type: 'bigint', name: 'row_version' }) rowVersion!: string;
  @Column({ type: 'json' }) item!: Record<string, unknown>;
}
