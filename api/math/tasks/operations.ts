import type { Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { aliasOf, defineOperation } from '../../kernel/operation';
import { pageOf } from '../shared/pagination';
import { applyWorkflowAction, prepareWorkflowAction, workflowView } from './actions';
import { presentTask } from './presenters';
import { taskCountCache } from './listCounts';
import { findVisibleTask, listTasks } from './queries';
import {
  actionBody,
  type TaskListQuery,
  taskListQuery,
  taskListSchema,
  taskParams,
  taskSchema,
  taskWithWorkflowSchema,
  toMathAction,
  workflowSchema,
} from './schemas';
import { ACTION_EXAMPLES } from './examples';

/** A page of the caller's tasks with the review status of the whole filtered result. */
export async function taskListPage(deps: AppDeps, principal: Principal, query: TaskListQuery) {
  const { page, page_size, sort, ...filters } = query;
  const [rows, counts] = await Promise.all([
    listTasks(deps.dataSource, principal, filters, sort, { page, page_size }),
    taskCountCache(deps.dataSource).counts(principal, filters),
  ]);
  return { ...pageOf(rows.map(presentTask), { page, page_size }, counts.total), counts };
}

export const listTaskPage = defineOperation({
  operationId: 'math.listTasks',
  summary: 'Tasks, filtered, searched and sorted; archived included by default; counts of the whole result.',
  method: 'GET',
  path: '/api/math/tasks',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: taskListQuery('all') },
  response: { status: 200, schema: taskListSchema, description: 'A page of tasks.' },
  async handler({ query, principal, deps }) {
    return { body: await taskListPage(deps, principal, query) };
  },
});

/** The dashboard's task list: the same declaration, whose default surface leaves archived tasks out. */
export const listWorkflowTasks = {
  ...aliasOf(listTaskPage, {
    operationId: 'math.listWorkflowTasks',
    path: '/api/math/workflow',
    summary: 'Same response and filters as GET /api/math/tasks; the default surface is `evaluations`.',
  }),
  request: { query: taskListQuery('evaluations') },
};

export const getTask = defineOperation({
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

export const getTaskWorkflow = defineOperation({
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
    return { body: await workflowView(deps, principal, params.task_id) };
  },
});

export const applyTaskAction = defineOperation({
  operationId: 'math.applyTaskAction',
  summary: 'Apply a workflow action (start, feedback, verdict, reopen, assign, client, archive, restore).',
  method: 'POST',
  path: '/api/math/tasks/:task_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['write'],
  idempotency: 'optional',
  request: { params: taskParams, body: actionBody },
  examples: ACTION_EXAMPLES,
  response: {
    status: 200,
    schema: taskWithWorkflowSchema,
    description: 'The updated task and its workflow history.',
  },
  errors: [400, 403, 404, 409, 422, 503],
  async prepare({ params, body, principal, deps }) {
    const action = toMathAction(body);
    return { action, task: await prepareWorkflowAction(deps, principal, params.task_id, action) };
  },
  async handler({ body, principal, deps, idempotencyKey, prepared }) {
    const { task, workflow } = await applyWorkflowAction({
      deps,
      principal,
      task: prepared.task,
      expectedVersion: body.version,
      action: prepared.action,
      idempotencyKey,
    });
    return { body: { task: presentTask(task), workflow } };
  },
});

export const taskOperations = [
  listTaskPage,
  listWorkflowTasks,
  getTask,
  getTaskWorkflow,
  aliasOf(getTaskWorkflow, {
    operationId: 'math.getDashboardTaskWorkflow',
    path: '/api/math/workflow/tasks/:task_id',
  }),
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
