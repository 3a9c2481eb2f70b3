import type { Principal } from '../kernel/authenticate';

/**
 * The Reviewer rule of `GET /api/v1/tasks`, in one place: a Reviewer sees the tasks they are the planned
 * reviewer of, or hold an ACTIVE or SUBMITTED assignment on. Cancelled and expired assignments no longer
 * count. Filters are added on top and can only narrow it.
 */
export function visibleGenomicsTasks(principal: Principal, topicAlias: string, params: unknown[]): string {
  if (principal.role !== 'REVIEWER') return 'TRUE';
  params.push(principal.member.id);
  const me = `$${params.length}`;
  return `(${topicAlias}.planned_reviewer_id = ${me} OR EXISTS (
    SELECT 1 FROM genomics_assignments va
     WHERE va.topic_id = ${topicAlias}.id AND va.reviewer_id = ${me} AND va.status IN ('ACTIVE', 'SUBMITTED')))`;
}
