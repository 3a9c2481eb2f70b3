import Joi from 'joi';
import { type ObjectType, typed } from '../../kernel/typedSchema';

/** The spec's listing bounds, the same for every math list. */
export const PAGE_MAX = 100_000;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 25;

/** Query keys of every paginated math list; spread them into the list's query schema. */
export const pageQueryKeys = {
  page: typed.number().integer().min(1).max(PAGE_MAX).default(1),
  page_size: typed.number().integer().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

export type PageQuery = ObjectType<typeof pageQueryKeys>;

/** LIMIT and OFFSET of a page, as SQL parameter values. */
export const limitOffset = (q: PageQuery): [number, number] => [q.page_size, (q.page - 1) * q.page_size];

/** The envelope of every math list: `{items, page, page_size, total}`; lists without a total omit it. */
export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total?: number;
}

export function pageOf<T>(items: T[], q: PageQuery, total?: number): Page<T> {
  return total === undefined
    ? { items, page: q.page, page_size: q.page_size }
    : { items, page: q.page, page_size: q.page_size, total };
}

/** The response schema of a list: its items, the page it answers, and `total` unless the list has none. */
export function pageSchema(item: Joi.Schema, options: { total?: boolean } = {}): Joi.ObjectSchema {
  const keys: Record<string, Joi.Schema> = {
    items: Joi.array().max(PAGE_SIZE_MAX).items(item).required(),
    page: Joi.number().integer().min(1).max(PAGE_MAX).required(),
    page_size: Joi.number().integer().min(1).max(PAGE_SIZE_MAX).required(),
  };
  if (options.total !== false) keys.total = Joi.number().integer().min(0).required();
  return Joi.object(keys);
}
