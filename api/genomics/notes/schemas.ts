import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString, dateTime } from '../../shared/schemas';
import { campaignId, decimalId, text } from '../shared/schemas';
import { topicParams } from '../topics/schemas';

export const NOTE_BODY_MAX = 50_000;

export const noteParams = typed.object({
  topicUid: typed.as<string, true>()(topicParams.extract('topicUid')),
  noteId: decimalId().required(),
});

export const createNoteBody = typed.object({
  body: text(NOTE_BODY_MAX).required(),
  campaignId: campaignId().allow(null).required(),
});

export const editNoteBody = typed.object({
  body: text(NOTE_BODY_MAX).required(),
  expectedBodySha256: typed
    .string()
    .pattern(/^[0-9a-f]{64}$/, 'sha256')
    .required(),
});

const noteSchema = Joi.object({
  id: bigintString().required(),
  campaign_id: Joi.string().allow(null).required(),
  kind: Joi.string().valid('topic', 'campaign').required(),
  author_id: bigintString().required(),
  body: Joi.string().required(),
  body_sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .required(),
  edit_count: Joi.number().integer().min(0).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
});

export const noteListSchema = Joi.object({ items: Joi.array().items(noteSchema).required() });
