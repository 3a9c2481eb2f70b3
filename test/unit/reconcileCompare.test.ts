import { genomicsReconciler } from '../../cli/operator/reconcileGenomics';
import { mathReconciler } from '../../cli/operator/reconcileMath';
import { differences } from '../../cli/operator/reconcileTypes';
import { deriveGenomicsLabels, initialGenomicsState } from '../../workflows/genomicsTask/state';

const mathRow = {
  task_id: 't-1',
  version: 0,
  review_state: 'UNASSIGNED' as const,
  decision: null,
  assignee_id: null,
  client_id: '7',
  archived: false,
};

const initial = initialGenomicsState();
const labels = deriveGenomicsLabels(initial);
/** A genomics topic's row as the import leaves it (no campaign). */
const topicRow = {
  id: '1',
  uid: 'b:1',
  workflow_version: 0,
  decision: initial.decision,
  previous_decision: null,
  requires_re_review: false,
  decision_campaign_id: null,
  submission_campaign_id: null,
  campaign_id: null,
  disposition: initial.disposition,
  planned_reviewer_id: null,
  current_package_version_id: null,
  deliverable_selection_revision: '0',
  workflow_status: labels.workflowStatus,
  status: labels.status,
  phase: labels.phase,
  classification: labels.classification,
  assignment_id: null,
  assignment_reviewer_id: null,
  assignment_status: null,
  assignment_due_at: null,
};

describe('reconcile comparison', () => {
  test('differences lists each differing field with both values, nested values compared whole', () => {
    expect(differences({ a: 1, b: { c: 2 }, d: null }, { a: 1, b: { c: 3 }, d: undefined })).toEqual([
      { field: 'b', projection: { c: 2 }, workflow: { c: 3 } },
    ]);
  });

  test('a math task without a workflow may carry its imported client but nothing else', () => {
    expect(mathReconciler.compare(mathRow, null)).toEqual([]);
    expect(mathReconciler.compare({ ...mathRow, version: 2, assignee_id: '5' }, null)).toEqual([
      { field: 'version', projection: 2, workflow: 0 },
      { field: 'assigneeId', projection: '5', workflow: null },
    ]);
  });

  test('a math task with a workflow is compared field by field, client included', () => {
    const state = {
      version: 3,
      reviewState: 'ASSIGNED' as const,
      decision: null,
      assigneeId: '5',
      clientId: null,
      archived: false,
    };
    expect(
      mathReconciler.compare({ ...mathRow, version: 3, review_state: 'ASSIGNED', assignee_id: '5' }, state),
    ).toEqual([{ field: 'clientId', projection: '7', workflow: null }]);
  });

  test('a genomics topic in its initial state, labels included, has no differences without a workflow', () => {
    const row = topicRow;
    expect(genomicsReconciler.compare(row, null)).toEqual([]);
    expect(genomicsReconciler.compare({ ...row, status: 'CLOSED' }, null)).toEqual([
      { field: 'status', projection: 'CLOSED', workflow: 'OPEN' },
    ]);
  });

  test('a genomics topic imported with a campaign and not acted on has no differences without a workflow', () => {
    const imported = { ...topicRow, id: '2', uid: 'batch-001:1', campaign_id: 'cmp-2026-spring' };
    expect(genomicsReconciler.compare(imported, null)).toEqual([]);
    // A decision recorded without any workflow is still a finding.
    expect(
      genomicsReconciler.compare({ ...imported, decision_campaign_id: 'cmp-2026-spring' }, null),
    ).toEqual([{ field: 'decisionCampaignId', projection: 'cmp-2026-spring', workflow: null }]);
  });
});
