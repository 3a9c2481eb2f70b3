import { createHash } from 'node:crypto';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { pageQuery } from '../shared/pagination';
import { buildReceipt } from '../topics/receipts';
import { campaignExists, findTopic, writeTopicEvent } from '../topics/queries';
import { receiptSchema, topicParams } from '../topics/schemas';
import { presentNote } from './presenters';
import { findNote, insertNote, listNotes, noteBodySha256, replaceNoteBody } from './queries';
import { createNoteBody, editNoteBody, noteListSchema, noteParams } from './schemas';
import { genomicsProblems } from '../problems';

/** The content digest `expectedBodySha256` is compared with: lowercase hex SHA-256 of the body's UTF-8. */
export const bodySha256 = (body: string): string => createHash('sha256').update(body, 'utf8').digest('hex');

export const listTopicNotes = defineOperation({
  operationId: 'genomics.listNotes',
  summary: 'The topic’s notes (topic and campaign notes), newest first.',
  method: 'GET',
  path: '/api/v1/topics/:topicUid/notes',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: topicParams, query: pageQuery },
  response: { status: 200, schema: noteListSchema, description: 'Notes, newest first.' },
  errors: [404],
  async handler({ params, query, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    return { body: { items: (await listNotes(deps.dataSource, topic.id, query)).map(presentNote) } };
  },
});

export const createNote = defineOperation({
  operationId: 'genomics.createNote',
  summary: 'Add a topic note (campaignId null) or a campaign note.',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/notes',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: createNoteBody },
  examples: {
    note: {
      summary: 'Add a topic note',
      value: { body: 'Checked against the reference build.', campaignId: null },
    },
  },
  response: { status: 201, schema: receiptSchema, description: 'Receipt naming the new note.' },
  errors: [400, 404, 409],
  async handler({ params, body, principal, deps, transaction }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    if (body.campaignId !== null && !(await campaignExists(deps.dataSource, body.campaignId))) {
      throw genomicsProblems.badRequest('unknown_campaign', `No campaign ${body.campaignId}.`);
    }
    return transaction(async (tx) => {
      const note = await insertNote(tx, {
        topicId: topic.id,
        campaignId: body.campaignId,
        authorId: principal.member.id,
        body: body.body,
        bodySha256: bodySha256(body.body),
      });
      const eventId = await writeTopicEvent(tx, topic.id, 'note_created', principal.member.id, {
        note_id: note.id,
        campaign_id: body.campaignId,
      });
      const receipt = await buildReceipt(tx, deps.config.s3.bucket, {
        topicUid: topic.uid,
        recordType: 'note',
        recordId: note.id,
        eventId,
      });
      return { status: 201, body: receipt };
    });
  },
});

export const editNote = defineOperation({
  operationId: 'genomics.editNote',
  summary: 'Edit a note, if its body still has the SHA-256 the editor saw (else 409, nothing changed).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/notes/:noteId',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: noteParams, body: editNoteBody },
  examples: {
    edit: {
      summary: 'Edit a note you read (its body’s SHA-256)',
      value: {
        body: 'Checked against the reference build GRCh38.',
        // SHA-256 of 'Checked against the reference build.', the body the createNote example writes.
        expectedBodySha256: '9499712f647969eae70f2afba468bbd9c4a7d76f10d0d4f099f1ea0a5f4119b8',
      },
    },
  },
  response: { status: 200, schema: receiptSchema, description: 'Receipt naming the edited note.' },
  errors: [400, 403, 404, 409],
  async handler({ params, body, principal, deps, transaction }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    const note = await findNote(deps.dataSource, topic.id, params.noteId);
    if (!note) throw problems.notFound(`Note ${params.noteId}`);
    if (note.author_id !== principal.member.id) throw problems.forbidden('Only the author may edit a note.');
    const newSha256 = bodySha256(body.body);
    return transaction(async (tx) => {
      const replaced = await replaceNoteBody(tx, {
        noteId: note.id,
        topicId: topic.id,
        body: body.body,
        bodySha256: newSha256,
        expectedBodySha256: body.expectedBodySha256,
      });
      if (!replaced) {
        throw genomicsProblems.conflict(
          'note_body_changed',
          'The note’s body no longer has the expected SHA-256; re-read it and retry.',
          { current_body_sha256: await noteBodySha256(tx, note.id) },
        );
      }
      const eventId = await writeTopicEvent(tx, topic.id, 'note_edited', principal.member.id, {
        note_id: note.id,
        previous_body_sha256: body.expectedBodySha256,
        body_sha256: newSha256,
      });
      const receipt = await buildReceipt(tx, deps.config.s3.bucket, {
        topicUid: topic.uid,
        recordType: 'note',
        recordId: note.id,
        eventId,
      });
      return { body: receipt };
    });
  },
});

export const noteOperations = [listTopicNotes, createNote, editNote];
