import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { dropDatabase } from '../../infra/postgres';

async function listDatabases(adminUrl: string, prefix: string): Promise<string[]> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname DESC`,
      [prefix],
    );
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

interface StartedStack {
  temporal: { stop(): Promise<void> };
  s3: { stop(): Promise<void> };
  pg: { adminUrl: string; stop?: () => Promise<void> };
  templateDatabase: string;
  /** Temporal's own databases when the tests ran on its server (REFEREE_TEST_TEMPORAL=server). */
  temporalDatabases: string[];
  workDir: string;
}

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as Record<string, unknown>).__REFEREE_TEST_STACK__ as StartedStack | undefined;
  if (!stack) return;
  await Promise.allSettled([stack.temporal.stop(), stack.s3.stop()]);
  // Test files drop their own databases; this catches the ones a crashed file left behind.
  const leftovers = await listDatabases(stack.pg.adminUrl, stack.templateDatabase).catch(
    () => [] as string[],
  );
  for (const name of [...leftovers, ...stack.temporalDatabases]) {
    await dropDatabase(stack.pg.adminUrl, name).catch(() => undefined);
  }
  if (stack.pg.stop) await stack.pg.stop();
  if (!process.env.KEEP_TEST_LOGS) await rm(stack.workDir, { recursive: true, force: true });
}
