import type { ExportFormat } from '../entities/Export';
import type { ExportToWrite, SnapshotRow } from './exportQueries';

export const exportMediaType = (format: ExportFormat): string =>
  format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson';

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; objects and arrays as JSON. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = (columns: string[]): string => `${columns.map(csvField).join(',')}\r\n`;

/** One row of the file: a JSON line (with `events` when asked) or a CSV record in the export's column order. */
export function formatExportLine(exp: Pick<ExportToWrite, 'format' | 'columns'>, row: SnapshotRow): string {
  const record = row.events === null ? row.item : { ...row.item, events: row.events };
  if (exp.format === 'jsonl') return `${JSON.stringify(record)}\n`;
  return `${exp.columns.map((column) => csvField((record as Record<string, unknown>)[column])).join(',')}\r\n`;
}
