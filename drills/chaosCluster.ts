import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import type { ConnectionFile } from '../infra/connectionFile';
import { projectRoot } from '../infra/paths';
import { freePort } from '../infra/ports';
import { createDatabase, type EmbeddedPostgres, startEmbeddedPostgres } from '../infra/postgres';
import { createS3Client } from '../storage/objectStore';
import type { SystemAccess } from '../bench/system';

export interface Cluster {
  dataDir: string;
  connection(): Promise<ConnectionFile>;
  access(): Promise<SystemAccess & { close(): Promise<void> }>;
  restartPostgres(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm run start:cluster` as an operator runs it, on a PostgreSQL this script owns (DATABASE_URL and
 * TEMPORAL_DATABASE_URL name it), so that PostgreSQL can be restarted under it.
 */
export async function startCluster(dataDir: string, log: (line: string) => void): Promise<Cluster> {
  const pgDir = join(dataDir, 'postgres');
  const pgPort = await freePort();
  let pg: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
  const databaseUrl = await createDatabase(pg.url, 'referee');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(DATABASE_|TEMPORAL_|S3_|AWS_|REFEREE_|PORT$)/.test(name)) env[name] = value;
  }
  Object.assign(env, {
    REFEREE_DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    TEMPORAL_DATABASE_URL: pg.url,
    // The rate limiter stays on but far above the load's rate (as in npm run bench).
    RATE_LIMIT_PER_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '10000000',
    FILE_CONCURRENCY_PER_KEY: '64',
  });
  const output = createWriteStream(join(dataDir, 'start-cluster.log'));
  let text = '';
  const child: ChildProcess = spawn('npm', ['run', 'start:cluster'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    output.write(chunk);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  log(`npm run start:cluster (output in ${join(dataDir, 'start-cluster.log')})`);
  const stopCluster = async () => {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(120_000)]);
  };
  try {
    const readyBy = Date.now() + 30 * 60_000;
    while (!/Press Ctrl-C to stop\./.test(text)) {
      if (/Start failed/.test(text) || child.exitCode !== null)
        throw new Error(`start:cluster failed:\n${text}`);
      if (Date.now() > readyBy) throw new Error(`start:cluster not ready within 30 min:\n${text}`);
      await sleep(500);
    }
  } catch (error) {
    await stopCluster();
    await pg.stop();
    throw error;
  }
  log('cluster ready');
  const connection = async () =>
    JSON.parse(await readFile(join(dataDir, 'connection.json'), 'utf8')) as ConnectionFile;
  return {
    dataDir,
    connection,
    async access() {
      const file = await connection();
      const accessEnv = { ...env, ...file.env };
      const config = loadConfig(accessEnv);
      const dataSource = await connectAndMigrate(config.databaseUrl, 4);
      const temporalConnection = await Connection.connect({ address: config.temporal.address });
      const s3 = createS3Client(config.s3);
      return {
        env: accessEnv,
        config,
        apiUrl: file.apiBaseUrl,
        dataSource,
        temporal: new Client({ connection: temporalConnection, namespace: config.temporal.namespace }),
        s3,
        async close() {
          s3.destroy();
          await temporalConnection.close();
          await dataSource.destroy();
        },
      };
    },
    async restartPostgres() {
      await pg.stop();
      pg = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
    },
    async stop() {
      await stopCluster();
      await pg.stop();
      output.end();
    },
  };
}
