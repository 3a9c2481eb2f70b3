import Joi from 'joi';
import { MATH_ACTIONS } from '../../../workflows/mathTask/state';
import { type SchemaType, typed } from '../../kernel/typedSchema';
import { bigintString, dateTime } from '../../shared/schemas';
import { pageQueryKeys, pageSchema } from '../shared/pagination';
import { nonblankComment } from '../tasks/schemas';

export const notesQuery = typed.object(pageQueryKeys);

/** A note is the feedback action: the task version the client saw and a nonblank comment. */
export const noteBody = typed.object({
  version: typed.number().integer().min(0).max(2_147_483_647).required(),
  comment: nonblankComment.required(),
});
export type NoteBody = SchemaType<typeof noteBody>;

export const noteSchema = Joi.object({
  id: bigintString().required(),
  version: Joi.number().integer().min(1).required(),
  action: Joi.string()
    .valid(...MATH_ACTIONS)
    .required(),
  author_id: bigintString().allow(null).required(),
  comment: Joi.string().pattern(/\S/).required(),
  created_at: dateTime().required(),
});

/** Notes have no total: a page shorter than `page_size` is the last one. */
export const notesPageSchema = pageSchema(noteSchema, { total: false });
