import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { insertApiKey } from '../access/keys';
import { type MemberSyncFile, syncMembers } from '../access/members';
import { readGenomicsBundle } from '../activities/bundles/genomicsBundle';
import { readMathBundle } from '../activities/bundles/mathBundle';
import type { loadConfig } from '../config';
import type { connectAndMigrate } from '../entities/dataSource';
import { SCOPES, SERVICES } from '../entities/types';
import { projectRoot } from '../infra/paths';
import { importGenomicsBundleWorkflowId } from '../workflows/importGenomicsBundle/messages';
import { importMathRunWorkflowId } from '../workflows/importMathRun/messages';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** On a new database: demo members, the demo run (through its import workflow) and one admin key per service. */
export async function firstRun(
  dataSource: Awaited<ReturnType<typeof connectAndMigrate>>,
  config: ReturnType<typeof loadConfig>,
): Promise<Array<{ service: string; token: string }>> {
  const [{ members }] = await dataSource.query('SELECT count(*)::int AS members FROM members');
  if (members === 0) {
    const file = JSON.parse(
      await readFile(join(projectRoot, 'demo', 'members.json'), 'utf8'),
    ) as MemberSyncFile;
    await syncMembers(dataSource, file);
    say('Loaded the demo members.');
  }
  const [{ runs }] = await dataSource.query('SELECT count(*)::int AS runs FROM math_runs');
  if (runs === 0) {
    const bundleDir = join(projectRoot, 'demo', 'math-run');
    const { manifest } = await readMathBundle(bundleDir);
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const client = new Client({ connection, namespace: config.temporal.namespace });
      await client.workflow.execute('importMathRunWorkflow', {
        workflowId: importMathRunWorkflowId(manifest.run.run_id),
        taskQueue: config.temporal.taskQueue,
        args: [{ bundleDir }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      say(`Imported the demo run ${manifest.run.run_id}.`);
    } finally {
      await connection.close();
    }
  }
  const [{ genomicsImports }] = await dataSource.query(
    'SELECT count(*)::int AS "genomicsImports" FROM genomics_imports',
  );
  if (genomicsImports === 0) {
    const bundleDir = join(projectRoot, 'demo', 'genomics');
    const { manifest } = await readGenomicsBundle(bundleDir);
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const client = new Client({ connection, namespace: config.temporal.namespace });
      await client.workflow.execute('importGenomicsBundleWorkflow', {
        workflowId: importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id),
        taskQueue: config.temporal.taskQueue,
        args: [{ bundleDir }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      say(`Imported the demo genomics bundle ${manifest.bundle.bundle_id}.`);
    } finally {
      await connection.close();
    }
  }
  const minted: Array<{ service: string; token: string }> = [];
  for (const service of SERVICES) {
    const [{ keys }] = await dataSource.query(
      `SELECT count(*)::int AS keys FROM api_keys k JOIN members m ON m.id = k.member_id
        WHERE k.service = $1 AND m.role = 'ADMIN'`,
      [service],
    );
    if (keys > 0) continue;
    const [admin]: Array<{ id: string; identity_id: string }> = await dataSource.query(
      `SELECT id::text, identity_id FROM members WHERE service = $1 AND role = 'ADMIN' AND enabled
        ORDER BY primary_admin DESC, id LIMIT 1`,
      [service],
    );
    if (!admin) continue;
    const key = await dataSource.transaction((tx) =>
      insertApiKey(tx, {
        service,
        memberId: admin.id,
        name: 'first-run admin key',
        role: 'ADMIN',
        scopes: [...SCOPES],
        expiresAt: new Date(Date.now() + 90 * 86_400_000),
        createdByKeyId: null,
        issuer: 'npm start (first run)',
      }),
    );
    minted.push({ service, token: key.token });
  }
  return minted;
}
