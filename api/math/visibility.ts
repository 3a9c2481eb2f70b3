import type { Principal } from '../kernel/authenticate';

/**
 * The Reviewer rule, in one place: a Reviewer sees and acts only on tasks currently assigned to them.
 * Every task query appends this condition; filters are added on top and can only narrow it.
 */
export function visibleTasks(principal: Principal, taskAlias: string, params: unknown[]): string {
  if (principal.role !== 'REVIEWER') return 'TRUE';
  params.push(principal.member.id);
  return `${taskAlias}.assignee_id = $${params.length}`;
}

/** Through its tasks: a Reviewer sees a client only while it is linked to a task assigned to them. */
export function visibleClients(principal: Principal, clientIdExpression: string, params: unknown[]): string {
  return visibleThroughTasks(principal, 'client_id', clientIdExpression, params);
}

/** Through its tasks: a Reviewer sees a run (and its freshness) only through a task assigned to them. */
export function visibleRuns(principal: Principal, runIdExpression: string, params: unknown[]): string {
  return visibleThroughTasks(principal, 'run_id', runIdExpression, params);
}

function visibleThroughTasks(
  principal: Principal,
  taskColumn: 'client_id' | 'run_id',
  expression: string,
  params: unknown[],
): string {
  if (principal.role !== 'REVIEWER') return 'TRUE';
  return `EXISTS (SELECT 1 FROM math_tasks vt WHERE vt.${taskColumn} = ${expression} AND ${visibleTasks(principal, 'vt', params)})`;
}

/** How much of the task data this caller's counts cover: everything, or only the tasks assigned to them. */
export const visibilityScope = (principal: Principal): 'all' | 'assigned' =>
  principal.role === 'REVIEWER' ? 'assigned' : 'all';
