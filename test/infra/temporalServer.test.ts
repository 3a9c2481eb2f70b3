import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { ensureTemporalServerTools, TEMPORAL_SERVER } from '../../infra/goTools';
import { dropDatabase } from '../../infra/postgres';
import { HISTORY_SHARDS, startTemporalServer, type TemporalServer } from '../../infra/temporalServer';
import { customSearchAttributes } from '../../workflows/searchAttributes';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Temporal's own server on PostgreSQL in its single-process topology: schemas created on the first start and
 * left as they are on the second, the shard count, the namespace with its search attributes, the UI, and a
 * SIGKILLed server process restarted by its supervision.
 */
const suffix = randomBytes(4).toString('hex');
const databases = { persistence: `temporal_it_${suffix}`, visibility: `temporal_it_${suffix}_vis` };
const namespace = 'referee-it';
let workDir: string;
let tools: Awaited<ReturnType<typeof ensureTemporalServerTools>>;
let adminUrl: string;
let server: TemporalServer | undefined;

const start = (log?: (line: string) => void) =>
  startTemporalServer({
    binaries: tools,
    postgresUrl: adminUrl,
    databases,
    stateDir: path.join(workDir, 'state'),
    topology: 'single',
    namespaces: [namespace],
    uiPort: 0,
    logFile: path.join(workDir, 'temporal.log'),
    log,
  });

/** The applied schema version and the number of applied updates of one of Temporal's databases. */
async function schemaState(database: string): Promise<{ version: string; updates: number }> {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ curr_version: string }>('SELECT curr_version FROM schema_version');
    const { rows: updates } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM schema_update_history',
    );
    return { version: rows[0].curr_version, updates: updates[0].n };
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  tools = await ensureTemporalServerTools(); // builds once (minutes) unless cached
  adminUrl = readTestEnv().pgAdminUrl;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-temporal-server-'));
}, 30 * 60_000);

afterAll(async () => {
  await server?.stop();
  for (const name of Object.values(databases)) await dropDatabase(adminUrl, name).catch(() => undefined);
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

test('the first start creates the schemas, 16 shards, the namespace and its search attributes, and the UI', async () => {
  server = await start();
  const connection = await Connection.connect({ address: server.address });
  try {
    const cluster = await connection.workflowService.getClusterInfo({});
    expect(cluster.serverVersion).toBe(TEMPORAL_SERVER.version.replace(/^v/, ''));
    expect(cluster.persistenceStore).toBe('postgres12');
    expect(cluster.visibilityStore).toBe('postgres12');
    expect(cluster.historyShardCount).toBe(HISTORY_SHARDS);
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(customAttributes).sort()).toEqual(Object.keys(customSearchAttributes).sort());
  } finally {
    await connection.close();
  }
  const page = await fetch(server.uiUrl!);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
}, 180_000);

test('a second start on the same databases finds the schemas up to date and changes nothing', async () => {
  const before = {
    persistence: await schemaState(databases.persistence),
    visibility: await schemaState(databases.visibility),
  };
  expect(Number(before.persistence.version)).toBeGreaterThan(1);
  await server!.stop();
  server = await start();
  expect(await schemaState(databases.persistence)).toEqual(before.persistence);
  expect(await schemaState(databases.visibility)).toEqual(before.visibility);
  const connection = await Connection.connect({ address: server.address });
  try {
    expect((await connection.workflowService.getClusterInfo({})).historyShardCount).toBe(HISTORY_SHARDS);
  } finally {
    await connection.close();
  }
}, 180_000);

test('a server process killed with SIGKILL is restarted and answers again', async () => {
  const lines: string[] = [];
  await server!.stop();
  server = await start((line) => lines.push(line));
  const killed = server.pid;
  process.kill(killed, 'SIGKILL');
  const deadline = Date.now() + 120_000;
  while (server.pid === killed && Date.now() < deadline) await sleep(100);
  expect(server.pid).not.toBe(killed);
  expect(lines.join('\n')).toMatch(new RegExp(`The Temporal server \\(pid ${killed}\\) exited .*restart 1`));
  for (;;) {
    try {
      const connection = await Connection.connect({ address: server.address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        break;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}, 180_000);
