import type { Queryable } from '../entities/queryable';

/** The smallest statement PostgreSQL answers: the readiness probe's check. */
export async function pingDatabase(db: Queryable): Promise<unknown> {
  return db.query('SELECT 1');
}
