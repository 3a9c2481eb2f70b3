import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { ensureConsoleBuilt } from '../../console/build';
import { connectAndMigrate } from '../../entities/dataSource';
import { ensureAllTools } from '../../infra/goTools';
import { createDatabase, isPostgresReachable, startEmbeddedPostgres } from '../../infra/postgres';
import { startS3Server } from '../../infra/s3Server';
import { startTemporalDevServer } from '../../infra/temporalDevServer';
import { writeTestEnv } from './testEnv';

const log = (line: string) => process.stderr.write(`[test setup] ${line}\n`);

/**
 * Starts the real services once per test run: the Temporal dev server (in memory), an S3 server over a
 * temporary folder, and PostgreSQL (the one on 127.0.0.1:5432 when reachable, else an embedded one),
 * plus a migrated template database that each test file clones. Also bundles the workflow code once.
 */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const workDir = await mkdtemp(join(tmpdir(), 'referee-test-'));
  const tools = await ensureAllTools(log);

  const [temporal, s3, pg, bundle] = await Promise.all([
    startTemporalDevServer({
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
    startPostgres(workDir),
    bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger }),
  ]);
  // The API serves the console's build (the console tests drive it in a browser); it never builds it itself.
  ensureConsoleBuilt();
  const workflowBundlePath = join(workDir, 'workflow-bundle.js');
  await writeFile(workflowBundlePath, bundle.code);

  const templateDatabase = `referee_template_${randomBytes(4).toString('hex')}`;
  const templateUrl = await createDatabase(pg.adminUrl, templateDatabase);
  const template = await connectAndMigrate(templateUrl, 1);
  await template.destroy();

  (globalThis as Record<string, unknown>).__REFEREE_TEST_STACK__ = {
    temporal,
    s3,
    pg,
    templateDatabase,
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
  log(`services ready in ${((Date.now() - started) / 1000).toFixed(1)} s (logs in ${workDir})`);
}

async function startPostgres(workDir: string): Promise<{ adminUrl: string; stop?: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await isPostgresReachable(adminUrl)) return { adminUrl };
  log('no PostgreSQL on 127.0.0.1:5432; starting an embedded one');
  const embedded = await startEmbeddedPostgres({ dataDir: join(workDir, 'pg'), log });
  return { adminUrl: embedded.url, stop: embedded.stop };
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => log(`bundler: ${message}`),
  error: (message: string) => log(`bundler: ${message}`),
};
