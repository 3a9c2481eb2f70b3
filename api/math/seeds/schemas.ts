import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { businessId, dateTime } from '../../shared/schemas';
import { pageQueryKeys, pageSchema } from '../shared/pagination';
import { reviewStatusSchema } from '../shared/reviewStatus';
import { searchQuery } from '../shared/search';

export const seedParams = typed.object({ question_id: businessId().required() });

/** `q` searches question ids. */
export const seedListQuery = typed.object({ q: searchQuery(), ...pageQueryKeys });

export const seedSchema = Joi.object({
  question_id: businessId().required(),
  review_status: reviewStatusSchema.required(),
  run_ids: Joi.array().items(businessId()).required(),
  topic_ids: Joi.array().items(businessId()).required(),
  updated_at: dateTime().required(),
});

export const seedListSchema = pageSchema(seedSchema);
