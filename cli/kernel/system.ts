import { relative } from 'node:path';
import { type Config, loadConfig } from '../../config';
import { type ConnectionFile, readConnectionFile } from '../../infra/connectionFile';
import { OpsError } from './output';

/** What a command needs to reach: every command the database, `import` Temporal too. */
export type Needs = { temporal: boolean };

const CONNECTION_VARIABLES = [
  'DATABASE_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_TASK_QUEUE',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'WEBHOOK_SECRET_KEY',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
] as const;

export interface System {
  config: Config;
  /** One line naming the system, for stderr. */
  description: string;
  /** The running system's connection file, when the command talks to that system's database. */
  connectionFile?: ConnectionFile;
}

/**
 * The system a command talks to: each connection variable from the environment when set, otherwise from the
 * connection file of a running `npm start`. Missing ones fail at once, naming them; nothing falls back to a
 * default address (that would reach whatever database happens to listen on 127.0.0.1:5432).
 */
export function resolveSystem(needs: Needs, env: NodeJS.ProcessEnv = process.env): System {
  const found = readConnectionFile();
  const merged: NodeJS.ProcessEnv = { ...env };
  const fromFile: string[] = [];
  if (found.state === 'running') {
    for (const name of CONNECTION_VARIABLES) {
      if (!merged[name] && found.content.env[name]) {
        merged[name] = found.content.env[name];
        fromFile.push(name);
      }
    }
  }
  const required = ['DATABASE_URL', ...(needs.temporal ? ['TEMPORAL_ADDRESS'] : [])];
  const missing = required.filter((name) => !merged[name]);
  if (missing.length > 0) {
    const shown = relative(process.cwd(), found.file) || found.file;
    const why =
      found.state === 'stale'
        ? `${shown} was left by npm start (pid ${found.pid}), which is no longer running`
        : `no npm start is running (${shown} does not exist)`;
    throw new OpsError(
      'not_configured',
      `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set and ${why}. ` +
        `Start the local system with "npm start" (in this folder, or point REFEREE_DATA_DIR at its data folder), ` +
        `or set ${missing.join(' and ')} to the system to administer.`,
      { missing },
    );
  }
  let config: Config;
  try {
    config = loadConfig(merged);
  } catch (error) {
    throw new OpsError('not_configured', (error as Error).message);
  }
  const database = new URL(config.databaseUrl);
  const parts = [`PostgreSQL ${database.host}${database.pathname}`];
  if (needs.temporal) parts.push(`Temporal ${config.temporal.address} (${config.temporal.namespace})`);
  const fromFileRequired = required.filter((name) => fromFile.includes(name));
  const running =
    found.state === 'running' ? `the system npm start runs (pid ${found.content.pid}, ${found.file})` : '';
  const source =
    fromFileRequired.length === 0
      ? 'the environment'
      : fromFileRequired.length === required.length
        ? running
        : `the environment and ${running}`;
  const connectionFile =
    found.state === 'running' && merged.DATABASE_URL === found.content.env.DATABASE_URL
      ? found.content
      : undefined;
  return { config, description: `referee: using ${parts.join(', ')} from ${source}`, connectionFile };
}
