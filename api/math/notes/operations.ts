import { defineOperation } from '../../kernel/operation';
import { pageOf } from '../shared/pagination';
import { applyWorkflowAction, prepareWorkflowAction } from '../tasks/actions';
import { findVisibleTask } from '../tasks/queries';
import { taskParams, workflowSchema } from '../tasks/schemas';
import { listNotes, type NoteRow } from './queries';
import { type NoteBody, noteBody, notesPageSchema, notesQuery } from './schemas';

const presentNote = (n: NoteRow) => ({
  id: n.id,
  version: n.version,
  action: n.action,
  author_id: n.actor_id,
  comment: n.comment,
  created_at: n.created_at.toISOString(),
});

export const listTaskNotes = defineOperation({
  operationId: 'math.listTaskNotes',
  summary: 'Nonempty comments of the task’s workflow events, newest version first; no total.',
  method: 'GET',
  path: '/api/math/tasks/:task_id/notes',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: taskParams, query: notesQuery },
  response: {
    status: 200,
    schema: notesPageSchema,
    description: 'A page of notes; a page shorter than page_size is the last.',
  },
  errors: [404],
  async handler({ params, query, principal, deps }) {
    await findVisibleTask(deps.dataSource, principal, params.task_id);
    const notes = await listNotes(deps.dataSource, params.task_id, query);
    return { body: pageOf(notes.map(presentNote), query) };
  },
});

const noteAction = (body: NoteBody) => ({ action: 'feedback' as const, comment: body.comment });

export const addTaskNote = defineOperation({
  operationId: 'math.addTaskNote',
  summary: 'Runs the feedback action: increments the version, may move ASSIGNED to IN_REVIEW.',
  method: 'POST',
  path: '/api/math/tasks/:task_id/notes',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['write'],
  idempotency: 'optional',
  request: { params: taskParams, body: noteBody },
  response: { status: 200, schema: workflowSchema, description: 'The full workflow detail after the note.' },
  errors: [400, 403, 404, 409, 503],
  prepare: ({ params, body, principal, deps }) =>
    prepareWorkflowAction(deps, principal, params.task_id, noteAction(body)),
  async handler({ body, principal, deps, idempotencyKey, prepared }) {
    const { workflow } = await applyWorkflowAction({
      deps,
      principal,
      task: prepared,
      expectedVersion: body.version,
      action: noteAction(body),
      idempotencyKey,
    });
    return { body: workflow };
  },
});

export const noteOperations = [listTaskNotes, addTaskNote];
