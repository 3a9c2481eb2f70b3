import Joi from 'joi';
import { bigintString, dateTime } from '../../shared/schemas';
import { campaignId, decimalId, text } from '../shared/schemas';
import { type TopicParams, topicParams } from '../topics/schemas';

export const NOTE_BODY_MAX = 50_000;

export interface NoteParams extends TopicParams {
  noteId: string;
}
export const noteParams = Joi.object<NoteParams>({
  topicUid: topicParams.extract('topicUid'),
  noteId: decimalId().required(),
});

export interface CreateNoteBody {
  body: string;
  campaignId: string | null;
}
export const createNoteBody = Joi.object<CreateNoteBody>({
  body: text(NOTE_BODY_MAX).required(),
  campaignId: campaignId().allow(null).required(),
});

export interface EditNoteBody {
  body: string;
  expectedBodySha256: string;
}
export const editNoteBody = Joi.object<EditNoteBody>({
  body: text(NOTE_BODY_MAX).required(),
  expectedBodySha256: Joi.string()
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
