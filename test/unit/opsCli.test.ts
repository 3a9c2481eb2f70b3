import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planMemberSync } from '../../access/members';
import { readConnectionFile, removeConnectionFile, writeConnectionFile } from '../../infra/connectionFile';
import { parseScopes } from '../../cli/handlers/keys';
import { UsageError } from '../../cli/kernel/output';
import {
  finalProgressOf,
  paceOf,
  PROGRESS_POLL_MS,
  renderProgressLine,
  showProgress,
} from '../../cli/handlers/progress';
import type { ImportProgress } from '../../workflows/importCommon';

describe('parseScopes', () => {
  test('absent means every scope; a list is kept as given', () => {
    expect(parseScopes(undefined)).toHaveLength(6);
    expect(parseScopes('read, files:read,read')).toEqual(['read', 'files:read']);
  });
  test.each(['', ' ', ',', 'read,admin'])('%j is refused, never widened', (value) => {
    expect(() => parseScopes(value)).toThrow(UsageError);
  });
});

describe('planMemberSync', () => {
  const stored = [
    {
      id: '1',
      identity_id: 'a',
      username: 'a',
      display_name: 'A',
      email: null,
      role: 'ADMIN' as const,
      enabled: true,
      primary_admin: true,
    },
    {
      id: '2',
      identity_id: 'b',
      username: 'b',
      display_name: 'B',
      email: null,
      role: 'REVIEWER' as const,
      enabled: true,
      primary_admin: false,
    },
    {
      id: '3',
      identity_id: 'c',
      username: 'c',
      display_name: 'C',
      email: null,
      role: 'REVIEWER' as const,
      enabled: false,
      primary_admin: false,
    },
  ];
  const listed = [
    { ...stored[0] },
    {
      identity_id: 'd',
      username: 'd',
      display_name: 'D',
      email: null,
      role: 'OWNER' as const,
      enabled: true,
    },
    { ...stored[1], role: 'OWNER' as const },
  ];
  test('sync disables the enabled members absent from the list', () => {
    const plan = planMemberSync('math', stored, listed, 'sync');
    expect(plan.create.map((m) => m.identity_id)).toEqual(['d']);
    expect(plan.update).toEqual([
      expect.objectContaining({ id: '2', changes: { role: { from: 'REVIEWER', to: 'OWNER' } } }),
    ]);
    expect(plan.unchanged).toBe(1);
    expect(plan.disable).toEqual([]); // c is already disabled; a and b are listed
    expect(planMemberSync('math', stored, [listed[1]], 'sync').disable.map((m) => m.identity_id)).toEqual([
      'a',
      'b',
    ]);
  });
  test('upsert disables nobody', () => {
    expect(planMemberSync('math', stored, [listed[1]], 'upsert').disable).toEqual([]);
  });
});

describe('renderProgressLine', () => {
  const progress: ImportProgress = {
    service: 'math',
    phase: 'uploading',
    subject: 'synthetic-s3-n100000',
    filesTotal: 40_000,
    filesStored: 12_345,
    filesUploaded: 12_000,
    bytesUploaded: 3_400_000_000,
    records: {
      tasks: 100_000,
      topics: 40,
      reports: 30_000,
      artifacts: 40_000,
      evidence: 72_000,
      clients: 12,
    },
    error: null,
  };
  const pace = paceOf(
    { at: 0, p: { ...progress, filesStored: 0, bytesUploaded: 0 } },
    { at: 60_000, p: progress },
  );
  test.each([40, 80, 120, 160, 200])('fits %i columns, with the bar and the percentage', (columns) => {
    const line = renderProgressLine(progress, pace, columns);
    expect(line.length).toBeLessThan(columns);
    expect(line).toContain(' 30% 12345/40000 files');
  });
  test('a wide terminal shows rate and ETA; a narrow one drops them before the bar', () => {
    expect(renderProgressLine(progress, pace, 120)).toMatch(/ETA \d+:\d\d \| 205\.8 files\/s/);
    expect(renderProgressLine(progress, pace, 50)).toMatch(/^\[#+\.+\] {2}30% 12345\/40000 files/);
  });
});

describe('showProgress', () => {
  const progress = (phase: ImportProgress['phase'], filesStored: number): ImportProgress => ({
    service: 'math',
    phase,
    subject: 'run-1',
    filesTotal: 10,
    filesStored,
    filesUploaded: filesStored,
    bytesUploaded: filesStored * 100,
    records: { tasks: 3 },
    error: null,
  });
  const capture = () => {
    const lines: string[] = [];
    const stream = { write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
    return { lines, stream };
  };

  test('asks one query at a time, however long the worker takes to answer', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let asked = 0;
    const slowQuery = async () => {
      asked += 1;
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS * 3));
      inFlight -= 1;
      return progress('uploading', asked);
    };
    const { stream } = capture();
    const stop = showProgress(slowQuery, 'jsonl', stream);
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS * 9));
    stop();
    expect(mostInFlight).toBe(1);
    // An interval timer would have asked about 9 times by now; one at a time, with answers taking 3 intervals, 2.
    expect(asked).toBeLessThanOrEqual(3);
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  test('draws nothing after it is stopped, and the final state given to it last', async () => {
    const { lines, stream } = capture();
    const stop = showProgress(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
        return progress('upserting', 5);
      },
      'jsonl',
      stream,
    );
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS * 1.5));
    // A query is in flight now; its late answer must not follow the final state.
    const result = { ...progress('done', 10), runId: 'run-1', unchanged: false, tasks: 3, changes: null };
    stop(finalProgressOf(result));
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS * 2));
    expect(lines.map((line) => JSON.parse(line).progress.phase)).toEqual(['done']);
    expect(JSON.parse(lines[0]).progress).toEqual(progress('done', 10));
  });
});

describe('connection file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'referee-connection-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const content = (pid: number) => ({
    pid,
    startedAt: new Date().toISOString(),
    apiBaseUrl: 'http://127.0.0.1:3000',
    env: {
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5/referee',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'referee',
      S3_ENDPOINT: 'http://127.0.0.1:7070',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    },
    processes: {},
  });

  test('is written for its owner only, read back as running, removed by its writer', () => {
    const file = join(dir, 'connection.json');
    writeConnectionFile(content(process.pid), file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readConnectionFile(file)).toMatchObject({ state: 'running', content: { pid: process.pid } });
    removeConnectionFile(file);
    expect(readConnectionFile(file).state).toBe('absent');
  });
  test('is never written through a link planted where its temporary file goes', () => {
    const file = join(dir, 'connection.json');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'keep me');
    // Where a predictable temporary name (the writer's pid) would put it.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    writeConnectionFile(content(process.pid), file);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readConnectionFile(file)).toMatchObject({ state: 'running' });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([
      `connection.json.${process.pid}.tmp`,
    ]);
    removeConnectionFile(file);
    rmSync(`${file}.${process.pid}.tmp`);
    rmSync(victim);
  });
  test('a file whose process is gone is stale; a foreign file is refused', () => {
    const file = join(dir, 'connection.json');
    writeFileSync(file, JSON.stringify(content(2 ** 22 + 777)));
    expect(readConnectionFile(file)).toEqual({ state: 'stale', file, pid: 2 ** 22 + 777 });
    writeFileSync(file, '{"hello":1}');
    expect(() => readConnectionFile(file)).toThrow('not a connection file');
  });
});
