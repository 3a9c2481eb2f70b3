import {
  EXPORT_WORKFLOW_TYPE,
  exportWorkflowId,
  exportWorkflowSummary,
} from '../../../workflows/export/messages';
import { exportOperationsOf } from '../../shared/exports/operations';
import { decimalId } from '../shared/schemas';
import { topicSnapshotSql } from '../topics/queries';
import { type TaskExportFilters, taskExportFilters } from '../topics/schemas';

/** The fields of a task list item, in presenters.ts order: the columns of a CSV export. */
export const TASK_EXPORT_COLUMNS = [
  'uid',
  'batch',
  'topic',
  'title',
  'category',
  'workflow_status',
  'decision',
  'previous_decision',
  'requires_re_review',
  'decision_campaign_id',
  'submission_campaign_id',
  'disposition',
  'planned_reviewer_id',
  'current_package_version_id',
  'deliverable_selection_revision',
  'client_ids',
  'exclusivity',
  'campaign_id',
  'status',
  'phase',
  'classification',
  'tags',
];

/** Exports of GET /api/v1/tasks (docs/exports.md), in the genomics service's conventions. */
export const exportOperations = exportOperationsOf<TaskExportFilters>({
  service: 'genomics',
  pathPrefix: '/api/v1',
  casing: 'camelCase',
  idempotency: 'required',
  decimalId,
  filters: taskExportFilters,
  columns: TASK_EXPORT_COLUMNS,
  snapshot: (principal, filters) => topicSnapshotSql(principal, filters),
  workflow: {
    type: EXPORT_WORKFLOW_TYPE,
    id: (exportId) => exportWorkflowId('genomics', exportId),
    summary: (exportId, rows, format) => exportWorkflowSummary('genomics', exportId, rows, format),
  },
  createExample: {
    name: 'active',
    summary: 'Active tasks matching a search, as JSON Lines with their events',
    value: { filters: { search: 'BRCA', disposition: 'ACTIVE' }, format: 'jsonl', includeEvents: true },
  },
});
