import Joi from 'joi';
import { decimalId } from './schemas';

/** `limit` and `before` of the record lists (events, notes, reports, revisions, assignments, deliveries). */
export interface PageQuery {
  limit: number;
  before?: string;
}
export const DEFAULT_LIMIT = 50;
export const listLimit = () => Joi.number().integer().min(1).max(100).default(DEFAULT_LIMIT);
export const pageQuery = Joi.object<PageQuery>({ limit: listLimit(), before: decimalId() });
