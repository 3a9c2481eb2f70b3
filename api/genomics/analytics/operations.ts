import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { defineOperation } from '../../kernel/operation';
import { ageingAnswerSchema, reviewersSchema } from '../../shared/dashboard';
import { dateTime, iso } from '../../shared/schemas';
import { DISPOSITIONS, WORKFLOW_STATUSES } from '../../../workflows/genomicsTask/state';
import {
  activeAgeing,
  eventTrend,
  genomicsFreshness,
  reviewerFigures,
  SUMMARY_DECISIONS,
  topicCounts,
} from './queries';

export const GENOMICS_TREND_DAYS_MAX = 90;

const count = () => Joi.number().integer().min(0).required();
const countsOf = (values: readonly string[]) =>
  Joi.object(Object.fromEntries(values.map((v) => [v, count()]))).required();

const analyticsSchema = Joi.object({
  scope: Joi.string().valid('all', 'assigned').required(),
  days: Joi.number().integer().min(1).max(GENOMICS_TREND_DAYS_MAX).required(),
  topics: Joi.object({
    total: count(),
    requires_re_review: count(),
    workflow_statuses: countsOf(WORKFLOW_STATUSES),
    decisions: countsOf(SUMMARY_DECISIONS),
    dispositions: countsOf(DISPOSITIONS),
  }).required(),
  trend: Joi.array()
    .items(
      Joi.object({
        date: Joi.string()
          .pattern(/^\d{4}-\d{2}-\d{2}$/)
          .required(),
        events: count(),
        reviews: count(),
        comments: count(),
      }),
    )
    .required(),
  reviewers: reviewersSchema,
  ageing: ageingAnswerSchema,
  freshness: Joi.object({
    latest_topic_created_at: dateTime().allow(null).required(),
    latest_topic_updated_at: dateTime().allow(null).required(),
    latest_import_finished_at: dateTime().allow(null).required(),
    latest_import_status: Joi.string().valid('SUCCEEDED', 'UNCHANGED', 'FAILED').allow(null).required(),
  }).required(),
});

/** The answer of GET /api/v1/analytics (also the bench's baseline for it). */
export async function genomicsAnalyticsAnswer(dataSource: DataSource, principal: Principal, days: number) {
  const [topics, trend, reviewers, ageing, freshness] = await Promise.all([
    topicCounts(dataSource, principal),
    eventTrend(dataSource, principal, days),
    reviewerFigures(dataSource, principal, days),
    activeAgeing(dataSource, principal),
    genomicsFreshness(dataSource, principal),
  ]);
  return {
    scope: principal.role === 'REVIEWER' ? 'assigned' : 'all',
    days,
    topics,
    trend: trend.map((p) => ({
      date: p.date,
      events: p.events,
      reviews: p.reviews,
      comments: p.comments,
    })),
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
    freshness: {
      latest_topic_created_at: iso(freshness.latest_topic_created_at),
      latest_topic_updated_at: iso(freshness.latest_topic_updated_at),
      latest_import_finished_at: iso(freshness.latest_import_finished_at),
      latest_import_status: freshness.latest_import_status,
    },
  };
}

export const getAnalytics = defineOperation({
  operationId: 'genomics.getAnalytics',
  summary:
    'Topic states, decisions and dispositions, a daily event trend, turnaround and open work per reviewer, ageing and freshness.',
  method: 'GET',
  path: '/api/v1/analytics',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  extension: true,
  request: {
    query: typed.object({
      days: typed.number().integer().min(1).max(GENOMICS_TREND_DAYS_MAX).default(30),
    }),
  },
  response: {
    status: 200,
    schema: analyticsSchema,
    description:
      'Figures over the topics `GET /api/v1/tasks` shows the caller; a Reviewer’s per-reviewer figures are their own.',
  },
  async handler({ query, principal, deps }) {
    return { body: await genomicsAnalyticsAnswer(deps.dataSource, principal, query.days) };
  },
});

export const analyticsOperations = [getAnalytics];
