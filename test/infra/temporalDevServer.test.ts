import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { ensureGoTool, TEMPORAL_CLI } from '../../infra/goTools';
import {
  ensureNamespace,
  startTemporalDevServer,
  type TemporalDevServer,
} from '../../infra/temporalDevServer';
import { customSearchAttributes } from '../../workflows/searchAttributes';

let workDir: string;
let server: TemporalDevServer;
let connection: Connection;

beforeAll(async () => {
  const binary = await ensureGoTool(TEMPORAL_CLI); // builds once (minutes) unless cached or REFEREE_TEMPORAL_BIN is set
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-temporal-'));
  server = await startTemporalDevServer({
    binary,
    namespaces: ['referee-extra'],
    logFile: path.join(workDir, 'temporal.log'),
  });
  connection = await Connection.connect({ address: server.address });
}, 15 * 60_000);

afterAll(async () => {
  await connection?.close();
  await server?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Custom search attributes of `namespace` as name → indexed value type number. */
async function registeredAttributes(namespace: string): Promise<Record<string, number>> {
  return (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes;
}

const expectedAttributes = Object.fromEntries(
  Object.entries(customSearchAttributes).map(([name, type]) => [
    name,
    encodeSearchAttributeIndexedValueType(type.toUpperCase() as 'KEYWORD' | 'BOOL'),
  ]),
);

test('reports its address, UI and namespaces', async () => {
  expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(server.namespaces).toEqual(['default', 'referee-extra']);
  expect(server.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const { serverVersion } = await connection.workflowService.getSystemInfo({});
  expect(serverVersion).toMatch(/^1\./);
});

test('registers every custom search attribute in every namespace before resolving', async () => {
  expect(Object.keys(expectedAttributes).length).toBeGreaterThan(0);
  for (const namespace of server.namespaces) {
    expect(await registeredAttributes(namespace)).toMatchObject(expectedAttributes);
  }
});

test('ensureNamespace makes a namespace where workflows start and are found by custom attributes', async () => {
  await ensureNamespace(server.address, 'referee-isolated');
  expect(await registeredAttributes('referee-isolated')).toMatchObject(expectedAttributes);

  const client = new Client({ connection, namespace: 'referee-isolated' });
  // The readiness probe cleans up after itself.
  expect((await client.workflow.count()).count).toBe(0);

  const handle = await client.workflow.start('anyWorkflow', {
    taskQueue: 'no-worker',
    workflowId: 'wf-1',
    searchAttributes: { MathRun: ['run-7'], MathArchived: [false] },
  });
  let found: string[] = [];
  for (let i = 0; i < 100 && found.length === 0; i++) {
    found = [];
    for await (const wf of client.workflow.list({ query: `MathRun = 'run-7' AND MathArchived = false` })) {
      found.push(wf.workflowId);
    }
    if (found.length === 0) await sleep(50);
  }
  expect(found).toEqual(['wf-1']);
  await handle.terminate();
});

test('ensureNamespace is idempotent', async () => {
  await ensureNamespace(server.address, 'referee-twice');
  await expect(ensureNamespace(server.address, 'referee-twice')).resolves.toBeUndefined();
});
