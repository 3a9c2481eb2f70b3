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
