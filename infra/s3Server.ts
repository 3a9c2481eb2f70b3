import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, ListBucketsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../storage/objectStore';
import { freePort, waitForPort } from './ports';
import { spawnManaged } from './processes';
import { untilReady } from './startup';

export interface S3Server {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

export interface S3ServerOptions {
  binary: string;
  /** Each subdirectory is a bucket, each file below it an object. */
  rootDir: string;
  ip?: string;
  port?: number;
  accessKeyId?: string;
  secretAccessKey?: string;
  buckets: string[];
  logFile?: string;
}

const REGION = 'us-east-1';
const DEFAULT_ACCESS_KEY_ID = 'referee';
/** Local-only development secret; the gateway listens on loopback. */
const DEFAULT_SECRET_ACCESS_KEY = 'referee-local-dev-secret';
const READY_TIMEOUT_MS = 20_000;

/**
 * Runs versitygw (S3 API over a plain directory) on loopback, waits until it answers signed requests
 * and creates `buckets` (existing ones are kept).
 */
export async function startS3Server(opts: S3ServerOptions): Promise<S3Server> {
  const ip = opts.ip ?? '127.0.0.1';
  const port = opts.port ?? (await freePort(ip));
  const accessKeyId = opts.accessKeyId ?? DEFAULT_ACCESS_KEY_ID;
  const secretAccessKey = opts.secretAccessKey ?? DEFAULT_SECRET_ACCESS_KEY;
  const rootDir = path.resolve(opts.rootDir);
  fs.mkdirSync(rootDir, { recursive: true });

  const host = ip.includes(':') ? `[${ip}]` : ip;
  const proc = spawnManaged(
    opts.binary,
    ['--port', `${host}:${port}`, '--region', REGION, '--quiet', 'posix', rootDir],
    {
      name: 'versitygw',
      // Credentials by environment keep the secret out of `ps` and the log's command line.
      env: { ...gatewayEnv(), ROOT_ACCESS_KEY_ID: accessKeyId, ROOT_SECRET_ACCESS_KEY: secretAccessKey },
      logFile: opts.logFile,
    },
  );
  const endpoint = `http://${host}:${port}`;
  const server: S3Server = {
    endpoint,
    region: REGION,
    accessKeyId,
    secretAccessKey,
    stop: () => proc.stop(),
  };

  const client = createS3Client({ endpoint, region: REGION, accessKeyId, secretAccessKey });
  try {
    await untilReady(proc, 'versitygw', opts.logFile, (signal) => waitUntilServing(client, ip, port, signal));
    for (const bucket of opts.buckets) await createBucket(client, bucket);
    return server;
  } catch (err) {
    await proc.stop();
    throw err;
  } finally {
    client.destroy();
  }
}

/** Our environment minus variables versitygw reads as settings (e.g. a generic LOGFILE enables access logs). */
function gatewayEnv(): NodeJS.ProcessEnv {
  const settings = /^(VGW_|ROOT_ACCESS_KEY|ROOT_SECRET_|LOGFILE$|WEBHOOK$)/;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !settings.test(key)));
}

async function waitUntilServing(
  client: S3Client,
  ip: string,
  port: number,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  await waitForPort(ip, port, READY_TIMEOUT_MS, signal);
  while (!signal.aborted) {
    try {
      await client.send(new ListBucketsCommand({}), { abortSignal: signal });
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(`versitygw on ${ip}:${port} is not serving: ${String(err)}`, { cause: err });
      }
      await sleep(100);
    }
  }
}

async function createBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  }
}
