import Joi from 'joi';
import { MATH_DECISIONS, MATH_REVIEW_STATES } from '../../../workflows/mathTask/state';

/**
 * Aggregate review status of a set of tasks, one shape everywhere (task lists, seeds, runs, monitor,
 * analytics): how many, how many archived and unassigned, and counts per review state and per decision
 * (`NONE` = undecided). Archived tasks are counted in the state and decision counts too.
 */
export interface ReviewStatus {
  total: number;
  archived: number;
  unassigned: number;
  review_states: Record<string, number>;
  decisions: Record<string, number>;
}

const stateColumn = (state: string) => `rs_${state.toLowerCase()}`;
const decisionColumn = (decision: string) => `dc_${decision.toLowerCase()}`;

/** Aggregate select list over the task alias (names come from constants, never from input). */
export function reviewStatusColumns(alias: string): string {
  return [
    `count(${alias}.task_id)::int AS total`,
    `count(${alias}.task_id) FILTER (WHERE ${alias}.archived)::int AS archived`,
    `count(${alias}.task_id) FILTER (WHERE ${alias}.assignee_id IS NULL)::int AS unassigned`,
    ...MATH_REVIEW_STATES.map(
      (s) =>
        `count(${alias}.task_id) FILTER (WHERE ${alias}.review_state = '${s}')::int AS ${stateColumn(s)}`,
    ),
    ...MATH_DECISIONS.map(
      (d) => `count(${alias}.task_id) FILTER (WHERE ${alias}.decision = '${d}')::int AS ${decisionColumn(d)}`,
    ),
    `count(${alias}.task_id) FILTER (WHERE ${alias}.decision IS NULL)::int AS dc_none`,
  ].join(',\n  ');
}

export function presentReviewStatus(row: Record<string, unknown>): ReviewStatus {
  const n = (column: string) => Number(row[column] ?? 0);
  return {
    total: n('total'),
    archived: n('archived'),
    unassigned: n('unassigned'),
    review_states: Object.fromEntries(MATH_REVIEW_STATES.map((s) => [s, n(stateColumn(s))])),
    decisions: {
      ...Object.fromEntries(MATH_DECISIONS.map((d) => [d, n(decisionColumn(d))])),
      NONE: n('dc_none'),
    },
  };
}

const count = () => Joi.number().integer().min(0).required();

export const reviewStatusSchema = Joi.object({
  total: count(),
  archived: count(),
  unassigned: count(),
  review_states: Joi.object(Object.fromEntries(MATH_REVIEW_STATES.map((s) => [s, count()]))).required(),
  decisions: Joi.object(Object.fromEntries([...MATH_DECISIONS, 'NONE'].map((d) => [d, count()]))).required(),
});
