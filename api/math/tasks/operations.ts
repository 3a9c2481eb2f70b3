import { randomUUID } from 'node:crypto';
import {
  applyMathActionUpdate,
  type MathActionReceipt,
  type MathActionRequest,
} from '../../../workflows/mathTask/messages';
import { mathSearchAttributes, mathTaskWorkflowId } from '../../../workflows/mathTask/ids';
import type { MathActor } from '../../../workflows/mathTask/state';
import type { mathTaskWorkflow } from '../../../workflows/mathTask/workflow';
import type { Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { type ApiError, problems } from '../../kernel/errors';
import { aliasOf, defineOperation } from '../../kernel/operation';
import { updateTaskWorkflow } from '../../kernel/temporal';
import { presentTask, presentWorkflow } from './presenters';
import { findVisibleTask, latestEvents, type TaskRow, workflowChoices } from './queries';
import {
  type ActionBody,
  actionBody,
  type TaskParams,
  taskParams,
  taskSchema,
  taskWithWorkflowSchema,
  toMathAction,
  workflowSchema,
} from './schemas';

const actorOf = (principal: Principal): MathActor => ({
  memberId: principal.member.id,
  role: principal.role,
});

async function workflowView(deps: AppDeps, principal: Principal, task: TaskRow) {
  const [events, choices] = await Promise.all([
    latestEvents(deps.dataSource, task.task_id),
    principal.role === 'REVIEWER' ? { reviewers: [], clients: [] } : workflowChoices(deps.dataSource),
  ]);
  return presentWorkflow(task, events, actorOf(principal), choices);
}

export const getTask = defineOperation<TaskParams>({
  operationId: 'math.getTask',
  summary: 'A task: imported problem, report mapping and compact workflow summary.',
  method: 'GET',
  path: '/api/math/tasks/:task_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: taskParams },
  response: { status: 200, schema: taskSchema, description: 'The task.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    return { body: presentTask(await findVisibleTask(deps.dataSource, principal, params.task_id)) };
  },
});

export const getTaskWorkflow = defineOperation<TaskParams>({
  operationId: 'math.getTaskWorkflow',
  summary: 'Current version, assignment, decision, allowed reviewer and client choices, latest 200 events.',
  method: 'GET',
  path: '/api/math/tasks/:task_id/workflow',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: taskParams },
  response: { status: 200, schema: workflowSchema, description: 'The task workflow.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    return { body: await workflowView(deps, principal, task) };
  },
});

export const applyTaskAction = defineOperation<TaskParams, Record<string, never>, ActionBody>({
  operationId: 'math.applyTaskAction',
  summary: 'Apply a workflow action (start, feedback, verdict, reopen, assign, client, archive, restore).',
  method: 'POST',
  path: '/api/math/tasks/:task_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['write'],
  idempotency: 'optional',
  request: { params: taskParams, body: actionBody },
  response: {
    status: 200,
    schema: taskWithWorkflowSchema,
    description: 'The updated task and its workflow history.',
  },
  errors: [400, 403, 404, 409, 422, 503],
  async handler({ params, body, principal, deps, idempotencyKey }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    const action = toMathAction(body);
    if (action.action === 'assign' && action.assigneeId)
      await requireAssignableMember(deps, action.assigneeId);
    if (action.action === 'client' && action.clientId) await requireEnabledClient(deps, action.clientId);

    const state = {
      version: task.version,
      reviewState: task.review_state,
      decision: task.decision,
      assigneeId: task.assignee_id,
      clientId: task.client_id,
      archived: task.archived,
    };
    await updateTaskWorkflow<MathActionReceipt, [MathActionRequest], typeof mathTaskWorkflow>(
      {
        client: deps.temporal.client,
        taskQueue: deps.config.temporal.taskQueue,
        timeoutMs: deps.config.temporal.callTimeoutMs,
      },
      {
        update: applyMathActionUpdate,
        args: [{ expectedVersion: body.version, action, actor: actorOf(principal) }],
        updateId: idempotencyKey ? `math:${principal.member.id}:${idempotencyKey}` : randomUUID(),
        workflowType: 'mathTaskWorkflow',
        workflowId: mathTaskWorkflowId(task.task_id),
        startArgs: [{ taskId: task.task_id, runId: task.run_id, state }],
        searchAttributes: mathSearchAttributes(state, task.run_id),
        memo: { title: task.title },
        rejection: mathRejection,
      },
    );
    const updated = await findVisibleTaskAfterAction(deps, principal, task.task_id);
    return { body: { task: presentTask(updated), workflow: await workflowView(deps, principal, updated) } };
  },
});

/** After an unassign a Reviewer can no longer see the task, but the receipt of their own action is still theirs. */
async function findVisibleTaskAfterAction(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
): Promise<TaskRow> {
  const operatorView = { ...principal, role: 'OWNER' as const };
  return findVisibleTask(deps.dataSource, operatorView, taskId);
}

async function requireAssignableMember(deps: AppDeps, memberId: string): Promise<void> {
  const rows: Array<{ enabled: boolean; primary_admin: boolean }> = await deps.dataSource.query(
    `SELECT enabled, primary_admin FROM members WHERE id = $1 AND service = 'math'`,
    [memberId],
  );
  if (!rows[0] || rows[0].primary_admin)
    throw problems.unprocessable('unknown_member', `No assignable member ${memberId}.`);
  if (!rows[0].enabled) throw problems.unprocessable('member_disabled', `Member ${memberId} is disabled.`);
}

async function requireEnabledClient(deps: AppDeps, clientId: string): Promise<void> {
  const rows: Array<{ enabled: boolean }> = await deps.dataSource.query(
    'SELECT enabled FROM math_clients WHERE id = $1',
    [clientId],
  );
  if (!rows[0]) throw problems.unprocessable('unknown_client', `No client ${clientId}.`);
  if (!rows[0].enabled) throw problems.unprocessable('client_disabled', `Client ${clientId} is disabled.`);
}

/** The state machine's rejections, as HTTP errors. */
function mathRejection(type: string, message: string, details: unknown[]): ApiError {
  const current = (details[0] as { version?: number } | undefined)?.version;
  switch (type) {
    case 'stale_version':
      return problems.conflict('stale_version', message, { current_version: current });
    case 'task_archived':
    case 'not_archived':
    case 'review_completed':
    case 'invalid_transition':
      return problems.conflict(type, message, { current_version: current });
    case 'comment_required':
      return problems.badRequest(type, message);
    case 'not_assigned_to_you':
    case 'operator_only':
      return problems.forbidden(message);
    default:
      return problems.internal();
  }
}

export const taskOperations = [
  getTask,
  getTaskWorkflow,
  applyTaskAction,
  aliasOf(applyTaskAction, {
    operationId: 'math.applyTaskActionWorkflowAlias',
    path: '/api/math/tasks/:task_id/workflow',
  }),
  aliasOf(applyTaskAction, {
    operationId: 'math.applyDashboardTaskAction',
    path: '/api/math/workflow/tasks/:task_id',
  }),
];
