import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createDatabase,
  dropDatabase,
  embeddedPostgresSettings,
  isPostgresReachable,
  startEmbeddedPostgres,
} from '../../infra/postgres';
import { freePort } from '../../infra/ports';

let workDir: string;
let dataDir: string;
let adminUrl: string;
let stop: (() => Promise<void>) | undefined;
const logLines: string[] = [];

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-pg-'));
  dataDir = path.join(workDir, 'data');
  const db = await startEmbeddedPostgres({ dataDir, log: (l) => logLines.push(l) });
  adminUrl = db.url;
  stop = db.stop;
});

afterAll(async () => {
  await stop?.();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

test('initialises a UTF8 cluster listening on loopback only', async () => {
  expect(adminUrl).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
  expect(logLines.some((l) => l.startsWith('initialising PostgreSQL data directory'))).toBe(true);
  const [row] = await query<{ enc: string; listen: string; up: string; version: string }>(
    adminUrl,
    `SELECT pg_encoding_to_char(encoding) AS enc, current_setting('listen_addresses') AS listen,
            upper('äé') AS up, current_setting('server_version_num') AS version
       FROM pg_database WHERE datname = 'postgres'`,
  );
  expect(row).toEqual({ enc: 'UTF8', listen: '127.0.0.1', up: 'ÄÉ', version: expect.stringMatching(/^17/) });
});

test('sizes shared buffers to an eighth of memory between 128 MB and 2 GB, with 4 GB of WAL', async () => {
  const GiB = 1024 ** 3;
  expect(embeddedPostgresSettings(0.5 * GiB).shared_buffers).toBe('128MB');
  expect(embeddedPostgresSettings(8 * GiB).shared_buffers).toBe('1024MB');
  expect(embeddedPostgresSettings(24 * GiB).shared_buffers).toBe('2048MB');
  const [running] = await query<{ shared_buffers: string; max_wal_size: string }>(
    adminUrl,
    `SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('max_wal_size') AS max_wal_size`,
  );
  const expected = embeddedPostgresSettings();
  const asMiB = (setting: string) =>
    Number(/^(\d+)MB$/.exec(setting)?.[1]) || Number(/^(\d+)GB$/.exec(setting)?.[1]) * 1024;
  expect(asMiB(running.shared_buffers)).toBe(asMiB(expected.shared_buffers));
  expect(running.max_wal_size).toBe(expected.max_wal_size);
});

test('isPostgresReachable tells a live server from a closed port and a wrong password', async () => {
  expect(await isPostgresReachable(adminUrl)).toBe(true);
  expect(await isPostgresReachable(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`, 500)).toBe(
    false,
  );
  const wrongPassword = new URL(adminUrl);
  wrongPassword.password = 'wrong';
  expect(await isPostgresReachable(wrongPassword.toString(), 500)).toBe(false);
});

test('createDatabase copies the template, dropDatabase removes it despite open connections', async () => {
  const templateUrl = await createDatabase(adminUrl, 'referee_template');
  await query(
    templateUrl,
    `CREATE TABLE papers (id serial PRIMARY KEY, title text); INSERT INTO papers (title) VALUES ('A'), ('B')`,
  );

  const name = `Copy with "quotes", 'apostrophes' & spaces`;
  const copyUrl = await createDatabase(adminUrl, name, 'referee_template');
  expect(await query(copyUrl, 'SELECT title FROM papers ORDER BY id')).toEqual([
    { title: 'A' },
    { title: 'B' },
  ]);

  const holder = new pg.Client({ connectionString: copyUrl });
  holder.on('error', () => {}); // it is about to be terminated
  await holder.connect();
  await dropDatabase(adminUrl, name);
  await dropDatabase(adminUrl, name); // IF EXISTS
  await holder.end().catch(() => {});
  const remaining = await query<{ datname: string }>(
    adminUrl,
    `SELECT datname FROM pg_database WHERE datname ILIKE 'copy%'`,
  );
  expect(remaining).toEqual([]);
});

test('a restart reuses the data directory', async () => {
  await query(adminUrl, 'CREATE TABLE survives (x int); INSERT INTO survives VALUES (42)');
  await stop?.();
  stop = undefined;
  logLines.length = 0;

  const again = await startEmbeddedPostgres({ dataDir, log: (l) => logLines.push(l) });
  stop = again.stop;
  adminUrl = again.url;
  expect(logLines).toEqual([]);
  expect(await query(again.url, 'SELECT x FROM survives')).toEqual([{ x: 42 }]);
});
