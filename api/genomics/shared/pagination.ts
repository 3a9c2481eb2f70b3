import { type SchemaType, typed } from '../../kernel/typedSchema';
import { decimalId } from './schemas';

export const DEFAULT_LIMIT = 50;
export const listLimit = () => typed.number().integer().min(1).max(100).default(DEFAULT_LIMIT);
/** `limit` and `before` of the record lists (events, notes, reports, revisions, assignments, deliveries). */
export const pageQuery = typed.object({ limit: listLimit(), before: decimalId() });
export type PageQuery = SchemaType<typeof pageQuery>;
