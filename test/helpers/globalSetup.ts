import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureConsoleBuilt } from '../../console/build';
import { connectAndMigrate } from '../../entities/dataSource';
import { ensureAllTools, ensureTemporalServerTools } from '../../infra/goTools';
import { createDatabase, isPostgresReachable, startEmbeddedPostgres } from '../../infra/postgres';
import { startS3Server } from '../../infra/s3Server';
import { startTemporalDevServer } from '../../infra/temporalDevServer';
import { startTemporalServer, temporalTopology } from '../../infra/temporalServer';
import { buildWorkflowBundle } from '../../deployment/workflowBundle';
import { writeTestEnv } from './testEnv';

const log = (line: string) => process.stderr.write(`[test setup] ${line}\n`);

/**
 * Which Temporal the tests run on: the dev server (in memory; the default), or with
 * `REFEREE_TEST_TEMPORAL=server` Temporal's own server on PostgreSQL as `npm run start:cluster` runs it, in the
 * topology REFEREE_TEMPORAL_TOPOLOGY names (`npm test` runs the workflow suites a second time on its cluster of
 * service processes).
 */
const TEMPORAL_ENGINE = process.env.REFEREE_TEST_TEMPORAL === 'server' ? 'server' : 'dev server';

/**
 * Starts the real services once per test run: Temporal (see {@link TEMPORAL_ENGINE}), an S3 server over a
 * temporary folder, and PostgreSQL (the one on 127.0.0.1:5432 when reachable, else an embedded one),
 * plus a migrated template database that each test file clones. Also bundles the workflow code once.
 */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const workDir = await mkdtemp(join(tmpdir(), 'referee-test-'));
  const [tools, serverTools] = await Promise.all([
    ensureAllTools(log),
    TEMPORAL_ENGINE === 'server' ? ensureTemporalServerTools(log) : null,
  ]);
  const pg = await startPostgres(workDir);
  const temporalDatabases = {
    persistence: `referee_temporal_${randomBytes(4).toString('hex')}`,
    visibility: '',
  };
  temporalDatabases.visibility = `${temporalDatabases.persistence}_vis`;

  // The workers' bundle as npm start and the bench build it (scripts/bundleWorkflows.ts in a child process).
  const workflowBundlePath = join(workDir, 'workflow-bundle.js');
  const [temporal, s3] = await Promise.all([
    serverTools
      ? startTemporalServer({
          binaries: { server: serverTools.server, sqlTool: serverTools.sqlTool },
          postgresUrl: pg.adminUrl,
          databases: temporalDatabases,
          stateDir: join(workDir, 'temporal-server'),
          topology: temporalTopology(),
          namespaces: [],
          logFile: join(workDir, 'temporal.log'),
        })
      : startTemporalDevServer({
          binary: tools.temporal,
          headless: true,
          logFile: join(workDir, 'temporal.log'),
        }),
    startS3Server({
      binary: tools.versitygw,
      rootDir: join(workDir, 's3'),
      buckets: [],
      logFile: join(workDir, 's3.log'),
    }),
    buildWorkflowBundle(workflowBundlePath),
  ]);
  // The API serves the console's build (the console tests drive it in a browser); it never builds it itself.
  ensureConsoleBuilt();

  const templateDatabase = `referee_template_${randomBytes(4).toString('hex')}`;
  const templateUrl = await createDatabase(pg.adminUrl, templateDatabase);
  const template = await connectAndMigrate(templateUrl, 1);
  await template.destroy();

  (globalThis as Record<string, unknown>).__REFEREE_TEST_STACK__ = {
    temporal,
    s3,
    pg,
    templateDatabase,
    temporalDatabases: serverTools ? Object.values(temporalDatabases) : [],
    workDir,
  };
  writeTestEnv({
    temporalAddress: temporal.address,
    s3Endpoint: s3.endpoint,
    s3AccessKeyId: s3.accessKeyId,
    s3SecretAccessKey: s3.secretAccessKey,
    pgAdminUrl: pg.adminUrl,
    templateDatabase,
    workflowBundlePath,
  });
  log(
    `Temporal: ${TEMPORAL_ENGINE}${'topology' in temporal ? ` (${temporal.topology})` : ''} at ${temporal.address}`,
  );
  log(`services ready in ${((Date.now() - started) / 1000).toFixed(1)} s (logs in ${workDir})`);
}

async function startPostgres(workDir: string): Promise<{ adminUrl: string; stop?: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await isPostgresReachable(adminUrl)) return { adminUrl };
  log('no PostgreSQL on 127.0.0.1:5432; starting an embedded one');
  const embedded = await startEmbeddedPostgres({ dataDir: join(workDir, 'pg'), log });
  return { adminUrl: embedded.url, stop: embedded.stop };
}
