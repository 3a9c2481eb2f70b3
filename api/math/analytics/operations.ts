import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { defineOperation } from '../../kernel/operation';
import { ageingAnswerSchema, reviewersSchema } from '../../shared/dashboard';
import { bigintString, iso } from '../../shared/schemas';
import { activitySchema, presentActivity } from '../activity/presenters';
import { listActivity } from '../activity/queries';
import { reviewStatusSchema } from '../shared/reviewStatus';
import { visibilityScope } from '../visibility';
import {
  actionTrend,
  assignedAgeing,
  reviewStatusOfVisibleTasks,
  reviewerTurnaround,
  workload,
} from './queries';

export const TREND_DAYS_MAX = 90;
export const RECENT_ACTIVITY = 10;

const count = () => Joi.number().integer().min(0).required();

const analyticsSchema = Joi.object({
  scope: Joi.string().valid('all', 'assigned').required(),
  review_status: reviewStatusSchema.required(),
  workload: Joi.array()
    .items(
      Joi.object({
        reviewer_id: bigintString().required(),
        display_name: Joi.string().required(),
        enabled: Joi.boolean().required(),
        assigned: count(),
        in_review: count(),
        completed: count(),
        total: count(),
      }),
    )
    .required(),
  trend: Joi.object({
    days: Joi.number().integer().min(1).max(TREND_DAYS_MAX).required(),
    points: Joi.array()
      .items(
        Joi.object({
          date: Joi.string()
            .pattern(/^\d{4}-\d{2}-\d{2}$/)
            .required(),
          actions: count(),
          feedback: count(),
          verdicts: count(),
        }),
      )
      .required(),
  }).required(),
  recent_activity: Joi.array().max(RECENT_ACTIVITY).items(activitySchema).required(),
});

/** The answer of GET /api/math/analytics (also the bench's baseline for it). */
export async function analyticsAnswer(dataSource: DataSource, principal: Principal, days: number) {
  const [status, load, trend, recent] = await Promise.all([
    reviewStatusOfVisibleTasks(dataSource, principal),
    workload(dataSource, principal),
    actionTrend(dataSource, principal, days),
    listActivity(dataSource, principal, undefined, { page: 1, page_size: RECENT_ACTIVITY }),
  ]);
  return {
    scope: visibilityScope(principal),
    review_status: status,
    workload: load.map((w) => ({
      reviewer_id: w.reviewer_id,
      display_name: w.display_name,
      enabled: w.enabled,
      assigned: w.assigned,
      in_review: w.in_review,
      completed: w.completed,
      total: w.total,
    })),
    trend: {
      days,
      points: trend.map((p) => ({
        date: p.date,
        actions: p.actions,
        feedback: p.feedback,
        verdicts: p.verdicts,
      })),
    },
    recent_activity: recent.map(presentActivity),
  };
}

export const getAnalytics = defineOperation({
  operationId: 'math.getAnalytics',
  summary: 'Review states, decisions, workload per reviewer, daily action trend and recent activity.',
  method: 'GET',
  path: '/api/math/analytics',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: {
    query: typed.object({
      days: typed.number().integer().min(1).max(TREND_DAYS_MAX).default(30),
    }),
  },
  response: {
    status: 200,
    schema: analyticsSchema,
    description: 'Analytics over the caller’s visible tasks.',
  },
  async handler({ query, principal, deps }) {
    return { body: await analyticsAnswer(deps.dataSource, principal, query.days) };
  },
});

const reviewerAnalyticsSchema = Joi.object({
  scope: Joi.string().valid('all', 'assigned').required(),
  days: Joi.number().integer().min(1).max(TREND_DAYS_MAX).required(),
  reviewers: reviewersSchema,
  ageing: ageingAnswerSchema,
});

/** The answer of GET /api/math/analytics/reviewers (also the bench's baseline for it). */
export async function reviewerAnalyticsAnswer(dataSource: DataSource, principal: Principal, days: number) {
  const [reviewers, ageing] = await Promise.all([
    reviewerTurnaround(dataSource, principal, days),
    assignedAgeing(dataSource, principal),
  ]);
  return {
    scope: visibilityScope(principal),
    days,
    reviewers: reviewers.map((r) => ({
      reviewer_id: r.reviewer_id,
      display_name: r.display_name,
      enabled: r.enabled,
      verdicts: r.verdicts,
      median_seconds: r.median_seconds,
      p90_seconds: r.p90_seconds,
      open: r.open,
      oldest_assigned_at: iso(r.oldest_assigned_at),
    })),
    ageing: { buckets: ageing.buckets, oldest_assigned_at: iso(ageing.oldest_assigned_at) },
  };
}

export const getReviewerAnalytics = defineOperation({
  operationId: 'math.getReviewerAnalytics',
  summary:
    'Turnaround per reviewer (assignment to verdict, median and p90) over a window, open work and its ageing.',
  method: 'GET',
  path: '/api/math/analytics/reviewers',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  extension: true,
  request: {
    query: typed.object({
      days: typed.number().integer().min(1).max(TREND_DAYS_MAX).default(30),
    }),
  },
  response: {
    status: 200,
    schema: reviewerAnalyticsSchema,
    description: 'Per reviewer figures over the caller’s visible tasks (a Reviewer: their own).',
  },
  async handler({ query, principal, deps }) {
    return { body: await reviewerAnalyticsAnswer(deps.dataSource, principal, query.days) };
  },
});

export const analyticsOperations = [getAnalytics, getReviewerAnalytics];
