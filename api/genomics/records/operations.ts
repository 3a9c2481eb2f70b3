import Joi from 'joi';
import { MEASUREMENT_SCOPES } from '../../../entities/GenomicsMeasurement';
import { defineOperation } from '../../kernel/operation';
import { bigintString, dateTime } from '../../shared/schemas';
import { assignmentSchema, type PageQuery, pageQuery, type TopicParams, topicParams } from '../schemas';
import { findTopic } from '../topics/queries';
import {
  presentAssignment,
  presentEvent,
  presentMeasurement,
  presentPublication,
  presentReport,
  presentRevision,
} from './presenters';
import {
  listAssignments,
  listEvents,
  listMeasurements,
  listReports,
  listRevisions,
  topicPaths,
} from './queries';

const sha256 = () => Joi.string().pattern(/^[0-9a-f]{64}$/, 'sha256');
const objectPath = () => Joi.string().pattern(/^s3:\/\/[^/]+\/.+$/, 's3 path');

const measurementSchema = Joi.object({
  id: Joi.string().required(),
  source_id: Joi.string().required(),
  model_id: Joi.string().required(),
  scope: Joi.string()
    .valid(...MEASUREMENT_SCOPES)
    .required(),
  status: Joi.string().valid('MEASURED', 'UNAVAILABLE').required(),
  scientific_passes: Joi.number().integer().min(0).allow(null).required(),
  completed: Joi.number().integer().min(0).allow(null).required(),
  pass_rate: Joi.number().min(0).max(1).allow(null).required(),
  measured_at: dateTime().required(),
  artifact_sha256: sha256().required(),
  reason: Joi.string().allow(null).required(),
});

const reportSchema = Joi.object({
  id: bigintString().required(),
  source_id: Joi.string().required(),
  title: Joi.string().required(),
  media_type: Joi.string().required(),
  path: objectPath().required(),
  size: Joi.number().integer().min(0).required(),
  sha256: sha256().required(),
  reported_at: dateTime().allow(null).required(),
});

const publicationSchema = Joi.object({
  id: bigintString().required(),
  source_id: Joi.string().required(),
  revision_id: bigintString().allow(null).required(),
  title: Joi.string().required(),
  media_type: Joi.string().required(),
  path: objectPath().required(),
  size: Joi.number().integer().min(0).required(),
  sha256: sha256().required(),
  published_at: dateTime().allow(null).required(),
});

export const revisionSchema = Joi.object({
  id: bigintString().required(),
  campaign_id: Joi.string().required(),
  number: Joi.number().integer().min(1).required(),
  status: Joi.string().valid('IN_PROGRESS', 'COMPLETED').required(),
  notes: Joi.string().allow('').required(),
  started_by: bigintString().allow(null).required(),
  source_id: Joi.string().allow(null).required(),
  path: objectPath().allow(null).required(),
  size: Joi.number().integer().min(0).allow(null).required(),
  sha256: sha256().allow(null).required(),
  media_type: Joi.string().allow(null).required(),
  created_at: dateTime().required(),
  completed_at: dateTime().allow(null).required(),
});

const eventSchema = Joi.object({
  id: bigintString().required(),
  kind: Joi.string().required(),
  actor_id: bigintString().allow(null).required(),
  workflow_version: Joi.number().integer().min(1).allow(null).required(),
  detail: Joi.object().unknown(true).required(),
  created_at: dateTime().required(),
});

const itemsOf = (item: Joi.Schema) => Joi.object({ items: Joi.array().items(item).required() });

export const getMeasurements = defineOperation<TopicParams>({
  operationId: 'genomics.getMeasurements',
  summary: 'Original-report and public-package-rerun pass-rate measurements (separate scopes, never merged).',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/measurements',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: topicParams },
  response: { status: 200, schema: itemsOf(measurementSchema), description: 'The topic’s measurements.' },
  errors: [404],
  async handler({ params, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    return { body: { items: (await listMeasurements(deps.dataSource, topic.id)).map(presentMeasurement) } };
  },
});

export const getPaths = defineOperation<TopicParams>({
  operationId: 'genomics.getPaths',
  summary: 'Object-storage paths, sizes and SHA-256 of the reports, completed revisions and publications.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/paths',
  minRole: 'REVIEWER',
  scopes: ['paths:read'],
  idempotency: 'none',
  request: { params: topicParams },
  response: {
    status: 200,
    schema: Joi.object({
      reports: Joi.array().items(reportSchema).required(),
      revisions: Joi.array().items(revisionSchema).required(),
      publications: Joi.array().items(publicationSchema).required(),
    }),
    description: 'Reports, revisions and publications with their storage paths and checksums.',
  },
  errors: [404],
  async handler({ params, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    const bucket = deps.config.s3.bucket;
    const paths = await topicPaths(deps.dataSource, topic.id);
    return {
      body: {
        reports: paths.reports.map((r) => presentReport(bucket, r)),
        revisions: paths.revisions.map((r) => presentRevision(bucket, r)),
        publications: paths.publications.map((p) => presentPublication(bucket, p)),
      },
    };
  },
});

export const listTopicEvents = defineOperation<TopicParams, PageQuery>({
  operationId: 'genomics.listEvents',
  summary: 'The topic’s events, newest first.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/events',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: topicParams, query: pageQuery },
  response: { status: 200, schema: itemsOf(eventSchema), description: 'Events, newest first.' },
  errors: [404],
  async handler({ params, query, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    return { body: { items: (await listEvents(deps.dataSource, topic.id, query)).map(presentEvent) } };
  },
});

export const listTopicReports = defineOperation<TopicParams, PageQuery>({
  operationId: 'genomics.listReports',
  summary: 'The topic’s imported reports with storage paths, newest first.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/reports',
  minRole: 'REVIEWER',
  scopes: ['read', 'paths:read'],
  idempotency: 'none',
  request: { params: topicParams, query: pageQuery },
  response: { status: 200, schema: itemsOf(reportSchema), description: 'Reports, newest first.' },
  errors: [404],
  async handler({ params, query, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    const rows = await listReports(deps.dataSource, topic.id, query);
    return { body: { items: rows.map((r) => presentReport(deps.config.s3.bucket, r)) } };
  },
});

export const listTopicRevisions = defineOperation<TopicParams, PageQuery>({
  operationId: 'genomics.listRevisions',
  summary: 'The topic’s package revisions (started and completed), newest first.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/revisions',
  minRole: 'REVIEWER',
  scopes: ['read', 'paths:read'],
  idempotency: 'none',
  request: { params: topicParams, query: pageQuery },
  response: { status: 200, schema: itemsOf(revisionSchema), description: 'Revisions, newest first.' },
  errors: [404],
  async handler({ params, query, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    const rows = await listRevisions(deps.dataSource, topic.id, query);
    return { body: { items: rows.map((r) => presentRevision(deps.config.s3.bucket, r)) } };
  },
});

export const listTopicAssignments = defineOperation<TopicParams, PageQuery>({
  operationId: 'genomics.listAssignments',
  summary: 'The topic’s reviewer assignments, newest first.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/assignments',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: topicParams, query: pageQuery },
  response: { status: 200, schema: itemsOf(assignmentSchema), description: 'Assignments, newest first.' },
  errors: [404],
  async handler({ params, query, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    return {
      body: { items: (await listAssignments(deps.dataSource, topic.id, query)).map(presentAssignment) },
    };
  },
});

export const recordOperations = [
  getMeasurements,
  getPaths,
  listTopicEvents,
  listTopicReports,
  listTopicRevisions,
  listTopicAssignments,
];
