import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { defineOperation } from '../../kernel/operation';
import { businessId } from '../../shared/schemas';
import { pageOf, pageQueryKeys, pageSchema } from '../shared/pagination';
import { searchQuery } from '../shared/search';
import { listReportMappings, type ReportMappingRow } from './queries';

const reportListQuery = typed.object({
  run_id: businessId(),
  question_id: businessId(),
  mapped: typed.boolean(),
  q: searchQuery(),
  ...pageQueryKeys,
});

const mappingSchema = Joi.object({
  task_id: businessId().required(),
  run_id: businessId().required(),
  topic_id: businessId().required(),
  question_id: businessId().required(),
  title: Joi.string().allow('').required(),
  archived: Joi.boolean().required(),
  report: Joi.object({
    report_id: businessId().required(),
    artifact_id: businessId().required(),
    source_id: Joi.string().allow(null).required(),
  })
    .allow(null)
    .required(),
});

const count = () => Joi.number().integer().min(0).required();
const reportListSchema = pageSchema(mappingSchema).keys({ mapped_reports: count(), unique_reports: count() });

const presentMapping = (m: ReportMappingRow) => ({
  task_id: m.task_id,
  run_id: m.run_id,
  topic_id: m.topic_id,
  question_id: m.question_id,
  title: m.title,
  archived: m.archived,
  report: m.report_id ? { report_id: m.report_id, artifact_id: m.artifact_id, source_id: m.source_id } : null,
});

export const listReports = defineOperation({
  operationId: 'math.listReports',
  summary:
    'Task report mappings, including null mappings; mapped_reports counts mappings, not unique objects.',
  method: 'GET',
  path: '/api/math/reports',
  minRole: 'OWNER',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: reportListQuery },
  response: {
    status: 200,
    schema: reportListSchema,
    description: 'A page of mappings in task id order with the counts of the whole filtered result.',
  },
  async handler({ query, principal, deps }) {
    const { page, page_size, ...filters } = query;
    const result = await listReportMappings(deps.dataSource, principal, filters, { page, page_size });
    return {
      body: {
        ...pageOf(result.rows.map(presentMapping), query, result.total),
        mapped_reports: result.mapped_reports,
        unique_reports: result.unique_reports,
      },
    };
  },
});

export const reportOperations = [listReports];
