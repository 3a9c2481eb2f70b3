import { defineOperation } from '../../kernel/operation';
import { pageQuery } from '../shared/pagination';
import { findTopic } from '../topics/queries';
import { topicParams } from '../topics/schemas';
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
import {
  assignmentSchema,
  eventSchema,
  itemsOf,
  measurementSchema,
  pathsSchema,
  reportSchema,
  revisionSchema,
} from './schemas';

export const getMeasurements = defineOperation({
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

export const getPaths = defineOperation({
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
    schema: pathsSchema,
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

export const listTopicEvents = defineOperation({
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

export const listTopicReports = defineOperation({
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

export const listTopicRevisions = defineOperation({
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

export const listTopicAssignments = defineOperation({
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
