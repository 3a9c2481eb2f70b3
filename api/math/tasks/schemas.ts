import Joi from 'joi';
import {
  MATH_ACTIONS,
  MATH_DECISIONS,
  MATH_REVIEW_STATES,
  type MathAction,
  type MathActionName,
  type MathDecision,
} from '../../../workflows/mathTask/state';
import { type SchemaType, typed, type TypedSchema } from '../../kernel/typedSchema';
import { bigintString, businessId, dateTime } from '../../shared/schemas';
import { idInput, idOrUnassignedInput, storableText } from '../shared/ids';
import { pageQueryKeys, pageSchema } from '../shared/pagination';
import { reviewStatusSchema } from '../shared/reviewStatus';
import { searchQuery } from '../shared/search';
import { TASK_SORTS, TASK_SURFACES, type TaskSurface, UNASSIGNED } from './queries';

export const taskParams = typed.object({ task_id: businessId().required() });
export type TaskParams = SchemaType<typeof taskParams>;

export const COMMENT_MAX = 10_000;

export const nonblankComment = storableText().max(COMMENT_MAX).pattern(/\S/, 'nonblank').messages({
  'string.pattern.name': '{{#label}} must not be blank',
  'string.empty': '{{#label}} must not be blank',
});
const needs = <S extends TypedSchema>(actions: MathActionName[], schema: S) =>
  typed.as<SchemaType<S>>()(
    Joi.when('action', { is: Joi.valid(...actions), then: schema.required(), otherwise: Joi.forbidden() }),
  );

/** Body of a workflow action: the task version the client saw, the action, and its payload. */
export const actionBody = typed.object({
  version: typed.number().integer().min(0).max(2_147_483_647).required(),
  action: typed
    .string()
    .valid(...MATH_ACTIONS)
    .required(),
  comment: typed.as<string | null>()(
    Joi.when('action', {
      switch: [
        { is: Joi.valid('feedback', 'verdict', 'reopen'), then: nonblankComment.required() },
        { is: Joi.valid('archive', 'restore'), then: storableText().max(COMMENT_MAX).allow('', null) },
      ],
      otherwise: Joi.forbidden(),
    }),
  ),
  assignee_id: needs(['assign'], idInput().allow(null)),
  client_id: needs(['client'], idInput().allow(null)),
  decision: needs(['verdict'], typed.string().valid(...MATH_DECISIONS)),
});
export type ActionBody = SchemaType<typeof actionBody>;

export function toMathAction(body: ActionBody): MathAction {
  switch (body.action) {
    case 'assign':
      return { action: 'assign', assigneeId: body.assignee_id ?? null };
    case 'client':
      return { action: 'client', clientId: body.client_id ?? null };
    case 'start':
      return { action: 'start' };
    case 'feedback':
      return { action: 'feedback', comment: body.comment ?? '' };
    case 'verdict':
      return { action: 'verdict', decision: body.decision as MathDecision, comment: body.comment ?? '' };
    case 'reopen':
      return { action: 'reopen', comment: body.comment ?? '' };
    case 'archive':
      return { action: 'archive', comment: body.comment ?? null };
    case 'restore':
      return { action: 'restore', comment: body.comment ?? null };
  }
}

const reviewState = () => typed.string().valid(...MATH_REVIEW_STATES);
const decision = () =>
  Joi.string()
    .valid(...MATH_DECISIONS)
    .allow(null);

export const taskSchema = Joi.object({
  task_id: businessId().required(),
  run_id: businessId().required(),
  topic_id: businessId().required(),
  question_id: businessId().required(),
  title: Joi.string().allow('').required(),
  problem: Joi.string().allow('').required(),
  report: Joi.object({
    report_id: businessId().required(),
    artifact_id: businessId().required(),
    source_id: Joi.string().allow(null).required(),
  })
    .allow(null)
    .required(),
  review_state: reviewState().required(),
  decision: decision().required(),
  assignee_id: bigintString().allow(null).required(),
  client_id: bigintString().allow(null).required(),
  archived: Joi.boolean().required(),
  version: Joi.number().integer().min(0).required(),
  workflow: Joi.object({
    version: Joi.number().integer().min(0).required(),
    review_state: reviewState().required(),
    decision: decision().required(),
    event_count: Joi.number().integer().min(0).required(),
    last_action: Joi.string().allow(null).required(),
    last_action_at: dateTime().allow(null).required(),
  }).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
});

const choice = Joi.object({ id: bigintString().required(), enabled: Joi.boolean().required() }).unknown(true);

export const workflowSchema = Joi.object({
  task_id: businessId().required(),
  version: Joi.number().integer().min(0).required(),
  review_state: reviewState().required(),
  decision: decision().required(),
  assignee_id: bigintString().allow(null).required(),
  client_id: bigintString().allow(null).required(),
  archived: Joi.boolean().required(),
  allowed_actions: Joi.array()
    .items(Joi.string().valid(...MATH_ACTIONS))
    .required(),
  reviewer_choices: Joi.array().items(choice).required(),
  client_choices: Joi.array().items(choice).required(),
  events: Joi.array()
    .max(200)
    .items(
      Joi.object({
        id: bigintString().required(),
        version: Joi.number().integer().min(1).required(),
        action: Joi.string()
          .valid(...MATH_ACTIONS)
          .required(),
        actor_id: bigintString().allow(null).required(),
        comment: Joi.string().allow(null).required(),
        from_state: reviewState().required(),
        to_state: reviewState().required(),
        detail: Joi.object().required(),
        created_at: dateTime().required(),
      }),
    )
    .required(),
});

export const taskWithWorkflowSchema = Joi.object({
  task: taskSchema.required(),
  workflow: workflowSchema.required(),
});

const taskFilterKeys = {
  run_id: businessId(),
  reviewer_id: idOrUnassignedInput('member', UNASSIGNED),
  client_id: idOrUnassignedInput('client', UNASSIGNED),
  review_state: reviewState(),
  decision: typed.string().valid(...MATH_DECISIONS),
  q: searchQuery(),
  sort: typed
    .string()
    .valid(...TASK_SORTS)
    .default('updated'),
  ...pageQueryKeys,
};

/** Query of a task list; `question_id` is absent where the path fixes it (its type keeps it optional). */
export function taskListQuery(defaultSurface: TaskSurface, options: { questionIdInPath?: boolean } = {}) {
  return typed.object({
    ...taskFilterKeys,
    ...(options.questionIdInPath ? {} : { question_id: businessId() }),
    surface: typed
      .string()
      .valid(...TASK_SURFACES)
      .default(defaultSurface),
  });
}
export type TaskListQuery = SchemaType<ReturnType<typeof taskListQuery>>;

/** The filters and order of an export of the task list (GET /api/math/tasks without its paging). */
export function taskExportFilters() {
  const { page: _page, page_size: _pageSize, ...filterKeys } = taskFilterKeys;
  return typed.object({
    ...filterKeys,
    question_id: businessId(),
    surface: typed
      .string()
      .valid(...TASK_SURFACES)
      .default('all'),
  });
}
export type TaskExportFilters = SchemaType<ReturnType<typeof taskExportFilters>>;

export const taskListSchema = pageSchema(taskSchema).keys({ counts: reviewStatusSchema.required() });
