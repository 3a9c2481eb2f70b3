import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import type { Principal } from '../api/kernel/authenticate';
import type { SqlQuery } from '../api/shared/sql';
import { connectAndMigrate } from '../entities/dataSource';
import type { ServiceName } from '../entities/types';
import { createDatabase, dropDatabase } from '../infra/postgres';

/** One documented query: its heading, the request that makes the API send it, and the SQL. */
export interface ExplainCase {
  title: string;
  request: string;
  query: SqlQuery;
}

/** A read-only principal of a generated member, as the API's visibility rules see it. */
export const principalOf = (service: ServiceName, role: Principal['role'], memberId: string): Principal => ({
  service,
  member: {
    id: memberId,
    identityId: `bench|${memberId}`,
    username: memberId,
    displayName: memberId,
    email: null,
    role,
    enabled: true,
  },
  key: { id: '00000000-0000-0000-0000-000000000000', role, scopes: ['read'], expiresAt: new Date() },
  assertion: null,
  role,
  scopes: ['read'],
});

/** Prints a report on stdout, or writes it to the file `--out <file>` names. */
export async function emitReport(report: string, plans: number): Promise<void> {
  const outFlag = process.argv.indexOf('--out');
  if (outFlag < 0) {
    process.stdout.write(report);
    return;
  }
  const out = process.argv[outFlag + 1];
  await writeFile(out, report);
  console.error(`wrote ${out} (${plans} plans)`);
}

/** EXPLAIN (ANALYZE, BUFFERS) of a query, after one run to warm the cache (a steady state, not a first read). */
export async function explainAnalyze(db: DataSource, query: SqlQuery): Promise<string> {
  await db.query(query.sql, query.params);
  const rows: Array<{ 'QUERY PLAN': string }> = await db.query(
    `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
    query.params,
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * Runs `work` on a scratch database created on the PostgreSQL at EXPLAIN_DATABASE_ADMIN_URL (default
 * 127.0.0.1:5432), migrated with the project's migrations, and dropped afterwards whatever happens.
 */
export async function withScratchDatabase<T>(work: (db: DataSource) => Promise<T>): Promise<T> {
  const adminUrl = process.env.EXPLAIN_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `referee_explain_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  let db: DataSource | null = null;
  try {
    db = await connectAndMigrate(url, 2);
    return await work(db);
  } finally {
    await db?.destroy();
    await dropDatabase(adminUrl, name);
  }
}
