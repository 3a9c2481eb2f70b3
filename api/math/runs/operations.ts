import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { businessId, dateTime, iso } from '../../shared/schemas';
import { pageOf, pageQueryKeys, pageSchema } from '../shared/pagination';
import { presentReviewStatus, reviewStatusSchema } from '../shared/reviewStatus';
import { searchQuery } from '../shared/search';
import { presentTask } from '../tasks/presenters';
import { listTasks } from '../tasks/queries';
import { taskSchema } from '../tasks/schemas';
import { findRun, listRuns, type RunReportRow, type RunRow, runReports, runTopics } from './queries';

const count = () => Joi.number().integer().min(0).required();

const runKeys = {
  run_id: businessId().required(),
  title: Joi.string().allow('').required(),
  source: Joi.string().allow('', null).required(),
  started_at: dateTime().allow(null).required(),
  completed_at: dateTime().allow(null).required(),
  imported_at: dateTime().required(),
  report_count: count(),
  mapped_reports: count(),
  review_status: reviewStatusSchema.required(),
};
const runSchema = Joi.object(runKeys);

const reportSchema = Joi.object({
  report_id: businessId().required(),
  artifact_id: businessId().required(),
  source_id: Joi.string().allow(null).required(),
  mapped_tasks: count(),
});

const runDetailSchema = Joi.object({
  ...runKeys,
  topics: Joi.array()
    .items(
      Joi.object({
        topic_id: businessId().required(),
        title: Joi.string().allow('').required(),
        latest: Joi.boolean().required(),
      }),
    )
    .required(),
  tasks: pageSchema(taskSchema).required(),
  reports: pageSchema(reportSchema).required(),
});

const presentRun = (r: RunRow) => ({
  run_id: r.run_id,
  title: r.title,
  source: r.source,
  started_at: iso(r.started_at),
  completed_at: iso(r.completed_at),
  imported_at: r.imported_at.toISOString(),
  report_count: r.report_count,
  mapped_reports: r.mapped_reports,
  review_status: presentReviewStatus(r),
});

const presentReport = (r: RunReportRow) => ({
  report_id: r.report_id,
  artifact_id: r.artifact_id,
  source_id: r.source_id,
  mapped_tasks: r.mapped_tasks,
});

export const listRunsOperation = defineOperation({
  operationId: 'math.listRuns',
  summary: 'All matching imported runs, newest import first, with their aggregate review status.',
  method: 'GET',
  path: '/api/math/runs',
  minRole: 'OWNER',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: typed.object({ q: searchQuery(), ...pageQueryKeys }) },
  response: { status: 200, schema: pageSchema(runSchema), description: 'A page of runs.' },
  async handler({ query, principal, deps }) {
    const { rows, total } = await listRuns(deps.dataSource, principal, query.q, query);
    return { body: pageOf(rows.map(presentRun), query, total) };
  },
});

export const getRun = defineOperation({
  operationId: 'math.getRun',
  summary: 'Run details, its topics, a page of its tasks and of its reports, aggregate review status.',
  method: 'GET',
  path: '/api/math/runs/:run_id',
  minRole: 'OWNER',
  scopes: ['read'],
  idempotency: 'none',
  request: {
    params: typed.object({ run_id: businessId().required() }),
    query: typed.object(pageQueryKeys),
  },
  response: { status: 200, schema: runDetailSchema, description: 'The run.' },
  errors: [404],
  async handler({ params, query, principal, deps }) {
    const run = await findRun(deps.dataSource, principal, params.run_id);
    if (!run) throw problems.notFound(`Run ${params.run_id}`);
    const [topics, tasks, reports] = await Promise.all([
      runTopics(deps.dataSource, principal, run.run_id),
      listTasks(deps.dataSource, principal, { run_id: run.run_id, surface: 'all' }, 'topic', query),
      runReports(deps.dataSource, principal, run.run_id, query),
    ]);
    const summary = presentRun(run);
    return {
      body: {
        ...summary,
        topics: topics.map((t) => ({
          topic_id: t.topic_id,
          title: t.title,
          latest: t.latest_run_id === run.run_id,
        })),
        tasks: pageOf(tasks.map(presentTask), query, summary.review_status.total),
        reports: pageOf(reports.map(presentReport), query, run.report_count),
      },
    };
  },
});

export const runOperations = [listRunsOperation, getRun];
