import {
  applyMathActionUpdate,
  type MathActionReceipt,
  type MathActionRequest,
} from '../../../workflows/mathTask/messages';
import { taskUpdateId, taskWorkflowSummary } from '../../../workflows/ids';
import { mathSearchAttributes, mathTaskWorkflowId } from '../../../workflows/mathTask/ids';
import type { MathAction, MathRejectionCode } from '../../../workflows/mathTask/state';
import type { mathTaskWorkflow } from '../../../workflows/mathTask/workflow';
import type { Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { actorOf, rejectionFrom, updateTaskWorkflow, workflowActorOf } from '../../kernel/temporal';
import { presentWorkflow } from './presenters';
import {
  findMathClient,
  findMathMember,
  findVisibleTask,
  findVisibleTaskWithWorkflow,
  type TaskRow,
} from './queries';
import { mathProblems } from '../problems';

/**
 * The task and its workflow view as this caller sees it (operators also get reviewer and client choices), read in
 * one statement; `visibleTo` decides which tasks are found (404 otherwise).
 */
async function readWorkflowView(deps: AppDeps, principal: Principal, taskId: string, visibleTo = principal) {
  const { task, events, choices } = await findVisibleTaskWithWorkflow(deps.dataSource, visibleTo, taskId, {
    choices: principal.role !== 'REVIEWER',
  });
  return { task, workflow: presentWorkflow(task, events, actorOf(principal), choices) };
}

/** The task's workflow view as this caller sees it; 404 when the caller may not see the task. */
export async function workflowView(deps: AppDeps, principal: Principal, taskId: string) {
  return (await readWorkflowView(deps, principal, taskId)).workflow;
}

/**
 * The reads before a workflow action: the task as the caller may see it (404 otherwise) and the member or client
 * the action names (422 when it cannot be chosen). An operation's `prepare`, run alongside the Idempotency-Key claim.
 */
export async function prepareWorkflowAction(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  action: MathAction,
): Promise<TaskRow> {
  const task = await findVisibleTask(deps.dataSource, principal, taskId);
  if (action.action === 'assign' && action.assigneeId) await requireAssignableMember(deps, action.assigneeId);
  if (action.action === 'client' && action.clientId) await requireEnabledClient(deps, action.clientId);
  return task;
}

export interface WorkflowActionCall {
  deps: AppDeps;
  principal: Principal;
  /** The task as {@link prepareWorkflowAction} read it. */
  task: TaskRow;
  expectedVersion: number;
  action: MathAction;
  idempotencyKey: string | null;
}

// After an unassign a Reviewer can no longer see the task, but the receipt of their own action is still theirs.
const operatorView = (principal: Principal): Principal => ({ ...principal, role: 'OWNER' });

/**
 * Applies one workflow action through the task's Temporal workflow (update-with-start) and returns the task as it
 * is afterwards, with the caller's workflow view, read in one statement. Every route that changes review state goes
 * through here.
 */
export async function applyWorkflowAction(call: WorkflowActionCall) {
  const taskId = await sendWorkflowAction(call);
  return readWorkflowView(call.deps, call.principal, taskId, operatorView(call.principal));
}

/** Sends the action to the task's workflow (the caller may see the task: it was read as theirs); returns its id. */
async function sendWorkflowAction(call: WorkflowActionCall): Promise<string> {
  const { deps, principal, action, task } = call;
  const state = {
    version: task.version,
    reviewState: task.review_state,
    decision: task.decision,
    assigneeId: task.assignee_id,
    clientId: task.client_id,
    archived: task.archived,
  };
  await updateTaskWorkflow<MathActionReceipt, [MathActionRequest], typeof mathTaskWorkflow>(deps, {
    update: applyMathActionUpdate,
    args: [{ expectedVersion: call.expectedVersion, action, actor: workflowActorOf(principal) }],
    updateId: call.idempotencyKey ? taskUpdateId('math', principal.member.id, call.idempotencyKey) : null,
    workflowType: 'mathTaskWorkflow',
    workflowId: mathTaskWorkflowId(task.task_id),
    // Every recorded transition raised the version, through the workflow.
    knownToExist: task.version > 0,
    start: async () => ({
      args: [{ taskId: task.task_id, runId: task.run_id, state }],
      searchAttributes: mathSearchAttributes(state, task.run_id),
      memo: { title: task.title },
      staticSummary: taskWorkflowSummary('Math task', task.task_id, task.title),
    }),
    rejection: mathRejection,
  });
  return task.task_id;
}

async function requireAssignableMember(deps: AppDeps, memberId: string): Promise<void> {
  const member = await findMathMember(deps.dataSource, memberId);
  if (!member || member.primaryAdmin)
    throw mathProblems.badRequest('unknown_member', `No assignable member ${memberId}.`);
  if (!member.enabled) throw mathProblems.badRequest('member_disabled', `Member ${memberId} is disabled.`);
}

async function requireEnabledClient(deps: AppDeps, clientId: string): Promise<void> {
  const client = await findMathClient(deps.dataSource, clientId);
  if (!client) throw mathProblems.unprocessable('unknown_client', `No client ${clientId}.`);
  if (!client.enabled) throw mathProblems.unprocessable('client_disabled', `Client ${clientId} is disabled.`);
}

const currentVersion = (details: unknown[]) => ({
  current_version: (details[0] as { version?: number } | undefined)?.version,
});

/** The state machine's rejections, as HTTP errors. */
const mathRejection = rejectionFrom<MathRejectionCode>({
  stale_version: (message, details) =>
    mathProblems.conflict('stale_version', message, currentVersion(details)),
  task_archived: (message, details) =>
    mathProblems.conflict('task_archived', message, currentVersion(details)),
  not_archived: (message, details) => mathProblems.conflict('not_archived', message, currentVersion(details)),
  review_completed: (message, details) =>
    mathProblems.conflict('review_completed', message, currentVersion(details)),
  invalid_transition: (message, details) =>
    mathProblems.conflict('invalid_transition', message, currentVersion(details)),
  comment_required: (message) => mathProblems.badRequest('comment_required', message),
  not_assigned_to_you: (message) => problems.forbidden(message),
  operator_only: (message) => problems.forbidden(message),
});
