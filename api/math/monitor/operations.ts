import Joi from 'joi';
import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { defineOperation } from '../../kernel/operation';
import { businessId, dateTime, iso } from '../../shared/schemas';
import { presentReviewStatus, reviewStatusSchema } from '../shared/reviewStatus';
import { visibilityScope } from '../visibility';
import { importFreshness, monitorCounts, runFreshness } from './queries';

const monitorSchema = Joi.object({
  scope: Joi.string().valid('all', 'assigned').required(),
  review_status: reviewStatusSchema.required(),
  assigned_to_you: Joi.number().integer().min(0).required(),
  freshness: Joi.object({
    latest_run_id: businessId().allow(null).required(),
    latest_run_imported_at: dateTime().allow(null).required(),
    latest_run_completed_at: dateTime().allow(null).required(),
    latest_completed_at: dateTime().allow(null).required(),
    latest_task_imported_at: dateTime().allow(null).required(),
    latest_task_updated_at: dateTime().allow(null).required(),
    latest_import_finished_at: dateTime().allow(null).required(),
    latest_import_status: Joi.string().valid('SUCCEEDED', 'UNCHANGED', 'FAILED').allow(null).required(),
  }).required(),
});

/** The answer of GET /api/math/monitor (also the bench's baseline for it). */
export async function monitorAnswer(dataSource: DataSource, principal: Principal) {
  const [counts, runs, imports] = await Promise.all([
    monitorCounts(dataSource, principal),
    runFreshness(dataSource, principal),
    importFreshness(dataSource, principal),
  ]);
  return {
    scope: visibilityScope(principal),
    review_status: presentReviewStatus(counts),
    assigned_to_you: counts.assigned_to_you,
    freshness: {
      latest_run_id: runs.latest_run_id,
      latest_run_imported_at: iso(runs.latest_run_imported_at),
      latest_run_completed_at: iso(runs.latest_run_completed_at),
      latest_completed_at: iso(runs.latest_completed_at),
      latest_task_imported_at: iso(counts.latest_task_imported_at),
      latest_task_updated_at: iso(counts.latest_task_updated_at),
      latest_import_finished_at: iso(imports.finished_at),
      latest_import_status: imports.status,
    },
  };
}

export const getMonitor = defineOperation({
  operationId: 'math.getMonitor',
  summary: 'Assignment-scoped task counts and freshness timestamps of the imported data.',
  method: 'GET',
  path: '/api/math/monitor',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: monitorSchema, description: 'Counts and freshness.' },
  async handler({ principal, deps }) {
    return { body: await monitorAnswer(deps.dataSource, principal) };
  },
});

export const monitorOperations = [getMonitor];
