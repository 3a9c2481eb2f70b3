import type { DataSource } from 'typeorm';
import type { MathTaskEvidence } from '../../../entities/MathTaskEvidence';
import type { RowPick } from '../../../entities/rows';

type EvidenceRow = RowPick<MathTaskEvidence, 'rubric' | 'review' | 'quality_gate' | 'imported_at'>;

/** The task's own entry, and only while the task still maps to the report it was imported for. */
export async function taskEvidence(dataSource: DataSource, taskId: string, reportId: string | null) {
  if (!reportId) return null;
  const rows: EvidenceRow[] = await dataSource.query(
    `SELECT rubric, review, quality_gate, imported_at FROM math_task_evidence WHERE task_id = $1 AND report_id = $2`,
    [taskId, reportId],
  );
  return rows[0] ?? null;
}
