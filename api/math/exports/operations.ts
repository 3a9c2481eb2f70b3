import {
  EXPORT_WORKFLOW_TYPE,
  exportWorkflowId,
  exportWorkflowSummary,
} from '../../../workflows/export/messages';
import { exportOperationsOf } from '../../shared/exports/operations';
import { idInput } from '../shared/ids';
import { taskSnapshotSql } from '../tasks/queries';
import { type TaskExportFilters, taskExportFilters } from '../tasks/schemas';

/** The fields of a task list item, in presenters.ts order: the columns of a CSV export. */
export const TASK_EXPORT_COLUMNS = [
  'task_id',
  'run_id',
  'topic_id',
  'question_id',
  'title',
  'problem',
  'report',
  'review_state',
  'decision',
  'assignee_id',
  'client_id',
  'archived',
  'version',
  'workflow',
  'created_at',
  'updated_at',
];

/** Exports of GET /api/math/tasks (docs/exports.md), in the math service's conventions. */
export const exportOperations = exportOperationsOf<TaskExportFilters>({
  service: 'math',
  pathPrefix: '/api/math',
  casing: 'snake_case',
  idempotency: 'optional',
  decimalId: idInput,
  filters: taskExportFilters(),
  columns: TASK_EXPORT_COLUMNS,
  snapshot: (principal, { sort, ...filters }) => taskSnapshotSql(principal, filters, sort),
  workflow: {
    type: EXPORT_WORKFLOW_TYPE,
    id: (exportId) => exportWorkflowId('math', exportId),
    summary: (exportId, rows, format) => exportWorkflowSummary('math', exportId, rows, format),
  },
  createExample: {
    name: 'accepted',
    summary: 'Accepted tasks of one run, with their workflow events, as CSV',
    value: {
      filters: { run_id: 'demo-run-1', decision: 'ACCEPTED', sort: 'topic' },
      format: 'csv',
      include_events: true,
    },
  },
});
