import Joi from 'joi';
import { businessId, dateTime } from '../../shared/schemas';
import { type PageQuery, pageQueryKeys, pageSchema } from '../shared/pagination';
import { reviewStatusSchema } from '../shared/reviewStatus';
import { searchQuery } from '../shared/search';

export interface SeedParams {
  question_id: string;
}
export const seedParams = Joi.object<SeedParams>({ question_id: businessId().required() });

export interface SeedListQuery extends PageQuery {
  q?: string;
}
/** `q` searches question ids. */
export const seedListQuery = Joi.object<SeedListQuery>({ q: searchQuery(), ...pageQueryKeys });

export const seedSchema = Joi.object({
  question_id: businessId().required(),
  review_status: reviewStatusSchema.required(),
  run_ids: Joi.array().items(businessId()).required(),
  topic_ids: Joi.array().items(businessId()).required(),
  updated_at: dateTime().required(),
});

export const seedListSchema = pageSchema(seedSchema);
