import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs each statement as a named prepared statement on the data source's pool, so PostgreSQL parses and plans it
 * once per connection instead of on every call. For the few statements a loop runs many times a second (the
 * webhook delivery's claim and record): their planning costs more than their execution. The name is a digest of
 * the text, so two texts never share one.
 */
export function preparedStatements(dataSource: DataSource): Pick<EntityManager, 'query'> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const names = new Map<string, string>();
  return {
    async query<T>(text: string, values?: unknown[]): Promise<T> {
      let name = names.get(text);
      if (name === undefined) {
        name = `referee_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
        names.set(text, name);
      }
      const result = await pool.query({ name, text, values });
      return result.rows as T;
    },
  };
}
