/** What an export workflow is started with: the export row, which holds everything else. */
export interface ExportInput {
  exportId: string;
}

/** How an export ended (also in the database row, which the API reads). */
export interface ExportResult {
  exportId: string;
  rowsWritten: number;
  sizeBytes: number;
  sha256: string;
  parts: number;
}

/** The workflow's registered name: the API starts it by name and never imports workflow code. */
export const EXPORT_WORKFLOW_TYPE = 'exportWorkflow';

/** One workflow per export. */
export const exportWorkflowId = (service: 'math' | 'genomics', exportId: string): string =>
  `export/${service}/${exportId}`;

/** The line the Temporal UI shows in the workflow list for an export. */
export const exportWorkflowSummary = (
  service: 'math' | 'genomics',
  exportId: string,
  rows: number,
  format: string,
): string => `${service === 'math' ? 'Math' : 'Genomics'} export ${exportId}: ${rows} tasks as ${format}`;
