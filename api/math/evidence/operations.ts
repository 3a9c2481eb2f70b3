import { iso } from '../../shared/schemas';
import { defineOperation } from '../../kernel/operation';
import { findVisibleTask } from '../tasks/queries';
import { taskParams } from '../tasks/schemas';
import { taskEvidence } from './queries';
import { evidenceSchema } from './schemas';

export const getTaskEvidence = defineOperation({
  operationId: 'math.getTaskEvidence',
  summary:
    "JSON projection of the task's rubric, review and quality gate from its report's evidence; parts may be null.",
  method: 'GET',
  path: '/api/math/workflow/tasks/:task_id/evidence',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: taskParams },
  response: { status: 200, schema: evidenceSchema, description: "The task's evidence." },
  errors: [404],
  async handler({ params, principal, deps }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    const evidence = await taskEvidence(deps.dataSource, task.task_id, task.report_id);
    return {
      body: {
        task_id: task.task_id,
        report_id: task.report_id,
        rubric: evidence?.rubric ?? null,
        review: evidence?.review ?? null,
        quality_gate: evidence?.quality_gate ?? null,
        imported_at: iso(evidence?.imported_at ?? null),
      },
    };
  },
});

export const evidenceOperations = [getTaskEvidence];
