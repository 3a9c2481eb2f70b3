import { genomicsTopicUid } from '../../../workflows/genomicsTask/ids';
import { deriveGenomicsLabels, initialGenomicsState } from '../../../workflows/genomicsTask/state';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { presentCampaign, presentClient, presentTopicItem } from './presenters';
import {
  findTopic,
  insertApiTopic,
  listTopics,
  lockTopicForEdit,
  topicCampaigns,
  topicClients,
  type TopicListFilter,
  topicMarkdown,
  updateTopicBrief,
  writeTopicEvent,
} from './queries';
import { buildReceipt } from './receipts';
import {
  CREATE_TOPIC_BODY_LIMIT_BYTES,
  createTopicBody,
  createTopicResponse,
  dedupeTags,
  tagsBody,
  tagsResponse,
  topicDetailSchema,
  type TopicListQuery,
  topicListSchema,
  topicParams,
  tasksQuery,
  topicsQuery,
  updateTopicBody,
} from './schemas';
import { genomicsProblems } from '../problems';

const toFilter = (query: TopicListQuery): TopicListFilter => ({
  limit: query.limit,
  search: query.search || undefined,
  disposition: query.disposition,
  after:
    query.afterBatch !== undefined && query.afterTopic !== undefined
      ? { batch: query.afterBatch, topic: query.afterTopic }
      : undefined,
});

export const listTasks = defineOperation({
  operationId: 'genomics.listTasks',
  summary: 'Tasks in (batch, topic) order with cursor pagination; a Reviewer sees only their own.',
  method: 'GET',
  path: '/api/v1/tasks',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: tasksQuery },
  response: { status: 200, schema: topicListSchema, description: 'One page of tasks and the next cursor.' },
  async handler({ query, principal, deps }) {
    const page = await listTopics(deps.dataSource, { ...toFilter(query), visibleTo: principal });
    return { body: { items: page.rows.map(presentTopicItem), next: page.next } };
  },
});

export const listTopicsOperation = defineOperation({
  operationId: 'genomics.listTopics',
  summary: 'Topics in (batch, topic) order with cursor pagination.',
  method: 'GET',
  path: '/api/v1/topics',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: topicsQuery },
  response: { status: 200, schema: topicListSchema, description: 'One page of topics and the next cursor.' },
  async handler({ query, deps }) {
    const page = await listTopics(deps.dataSource, toFilter(query));
    return { body: { items: page.rows.map(presentTopicItem), next: page.next } };
  },
});

export const createTopic = defineOperation({
  operationId: 'genomics.createTopic',
  summary: 'Create a topic and its task record (starts no computation).',
  method: 'POST',
  path: '/api/v1/topics',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { body: createTopicBody, minJsonBodyLimitBytes: CREATE_TOPIC_BODY_LIMIT_BYTES },
  examples: {
    create: {
      summary: 'Create a topic',
      value: {
        batch: 'batch-900',
        topic: 100001,
        title: 'BRCA2 splice variant',
        category: 'oncology',
        markdown: '## Evidence\n\nRNA-seq shows exon 11 skipping.',
      },
    },
  },
  response: { status: 201, schema: createTopicResponse, description: 'The new topic’s uid, as a receipt.' },
  errors: [400, 409, 413],
  async handler({ body, principal, deps, transaction }) {
    const topicUid = genomicsTopicUid(body.batch, body.topic);
    const state = initialGenomicsState();
    const labels = deriveGenomicsLabels(state);
    return transaction(async (tx) => {
      const topicId = await insertApiTopic(tx, {
        uid: topicUid,
        batch: body.batch,
        topic: body.topic,
        title: body.title,
        category: body.category,
        markdown: body.markdown,
        state,
        labels,
        createdBy: principal.member.id,
      });
      if (!topicId) {
        throw genomicsProblems.conflict('topic_exists', `Topic ${topicUid} already exists.`, { topicUid });
      }
      const eventId = await writeTopicEvent(tx, topicId, 'topic_created', principal.member.id, {
        batch: body.batch,
        topic: body.topic,
        title: body.title,
        category: body.category,
        markdown_chars: body.markdown.length,
      });
      const receipt = await buildReceipt(tx, deps.config.s3.bucket, {
        topicUid,
        recordType: 'topic',
        recordId: null,
        eventId,
      });
      return { status: 201, body: receipt };
    });
  },
});

export const getTopic = defineOperation({
  operationId: 'genomics.getTopic',
  summary: 'A topic: brief (with markdown), task state, campaigns and clients.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid',
  minRole: 'REVIEWER',
  scopes: ['read', 'paths:read'],
  idempotency: 'none',
  request: { params: topicParams },
  response: { status: 200, schema: topicDetailSchema, description: 'The topic, its campaigns and clients.' },
  errors: [404],
  async handler({ params, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    const [markdown, campaigns, clients] = await Promise.all([
      topicMarkdown(deps.dataSource, topic.id),
      topicCampaigns(deps.dataSource, topic.id),
      topicClients(deps.dataSource, topic.id),
    ]);
    return {
      body: {
        topic: {
          ...presentTopicItem(topic),
          markdown,
          created_at: topic.created_at.toISOString(),
          updated_at: topic.updated_at.toISOString(),
        },
        campaigns: campaigns.map(presentCampaign),
        clients: clients.map(presentClient),
      },
    };
  },
});

export const updateTopic = defineOperation({
  operationId: 'genomics.updateTopic',
  summary: 'Update a topic’s title and category.',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: updateTopicBody },
  examples: {
    update: {
      summary: 'Rename and recategorise',
      value: { title: 'BRCA2 c.6841+1G>A', category: 'hereditary cancer' },
    },
  },
  response: { status: 200, schema: createTopicResponse, description: 'Receipt of the update.' },
  errors: [400, 404, 409],
  async handler({ params, body, principal, deps, transaction }) {
    return transaction(async (tx) => {
      const before = await lockTopicForEdit(tx, params.topicUid);
      if (!before) throw problems.notFound(`Topic ${params.topicUid}`);
      await updateTopicBrief(tx, before.id, { title: body.title, category: body.category });
      const eventId = await writeTopicEvent(tx, before.id, 'topic_updated', principal.member.id, {
        title: { from: before.title, to: body.title },
        category: { from: before.category, to: body.category },
      });
      const receipt = await buildReceipt(tx, deps.config.s3.bucket, {
        topicUid: params.topicUid,
        recordType: 'topic',
        recordId: null,
        eventId,
      });
      return { body: receipt };
    });
  },
});

export const replaceTags = defineOperation({
  operationId: 'genomics.replaceTags',
  summary: 'Replace the whole tag set (duplicates dropped, first occurrences kept in order).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/tags',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: tagsBody },
  examples: { tags: { summary: 'Replace the tags', value: { tags: ['splice', 'brca2'] } } },
  response: { status: 200, schema: tagsResponse, description: 'The stored tags, with the receipt.' },
  errors: [400, 404, 409],
  async handler({ params, body, principal, deps, transaction }) {
    const tags = dedupeTags(body.tags);
    return transaction(async (tx) => {
      const before = await lockTopicForEdit(tx, params.topicUid);
      if (!before) throw problems.notFound(`Topic ${params.topicUid}`);
      await updateTopicBrief(tx, before.id, { tags });
      const eventId = await writeTopicEvent(tx, before.id, 'tags_replaced', principal.member.id, {
        from: before.tags,
        to: tags,
      });
      const receipt = await buildReceipt(tx, deps.config.s3.bucket, {
        topicUid: params.topicUid,
        recordType: 'topic',
        recordId: null,
        eventId,
      });
      return { body: { tags, ...receipt } };
    });
  },
});

export const topicOperations = [
  listTasks,
  listTopicsOperation,
  createTopic,
  getTopic,
  updateTopic,
  replaceTags,
];
