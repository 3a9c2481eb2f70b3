import type { Queryable } from '../../../entities/queryable';
import type { PageQuery } from './pagination';
import { fitsBigint } from './schemas';

/**
 * The SQL every list of a topic's records (notes, events, assignments, revisions, reports) pages with: newest
 * first, `before` an id (exclusive). A `before` beyond the bigint range is past every id, so it pages from the
 * newest record.
 */
export async function pageOfTopicRecords<T>(
  db: Queryable,
  columns: string,
  table: string,
  topicId: string,
  q: PageQuery,
): Promise<T[]> {
  const params: unknown[] = [topicId];
  let cursor = '';
  if (q.before && fitsBigint(q.before)) {
    params.push(q.before);
    cursor = `AND id < $${params.length}`;
  }
  params.push(q.limit);
  return db.query(
    `SELECT ${columns} FROM ${table} WHERE topic_id = $1 ${cursor} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
}

/** One of a topic's records by id, or null (also for an id beyond the bigint range, which names no record). */
export async function findTopicRecord<T>(
  db: Queryable,
  columns: string,
  table: string,
  topicId: string,
  id: string,
): Promise<T | null> {
  if (!fitsBigint(id)) return null;
  const rows: T[] = await db.query(`SELECT ${columns} FROM ${table} WHERE id = $1 AND topic_id = $2`, [
    id,
    topicId,
  ]);
  return rows[0] ?? null;
}
