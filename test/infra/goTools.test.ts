import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureGoTool, type GoTool, TEMPORAL_CLI } from '../../infra/goTools';

const FAKE: GoTool = {
  name: 'faketool',
  pkg: 'example.com/fake/cmd/faketool',
  version: 'v0.0.1',
  envOverride: 'REFEREE_TEST_FAKETOOL_BIN',
};

/** A stand-in `go` that records its calls and "builds" after a delay, so locking is observable. */
const FAKE_GO = `#!/bin/sh
echo "$* GOFLAGS=$GOFLAGS" >> "$FAKE_GO_CALLS"
sleep 0.5
[ -n "$FAKE_GO_FAIL" ] && { echo "fake build error" >&2; exit 1; }
printf '#!/bin/sh\\necho built\\n' > "$GOBIN/faketool"
chmod +x "$GOBIN/faketool"
`;

const savedEnv = { ...process.env };
let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-gotools-'));
});

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function executable(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
  return file;
}

function useFakeGo(): string {
  const calls = path.join(tmp, 'go-calls.txt');
  executable(path.join(tmp, 'fakebin', 'go'));
  fs.writeFileSync(path.join(tmp, 'fakebin', 'go'), FAKE_GO);
  process.env.PATH = `${path.join(tmp, 'fakebin')}${path.delimiter}${savedEnv.PATH ?? ''}`;
  process.env.FAKE_GO_CALLS = calls;
  process.env.REFEREE_TOOLS_DIR = path.join(tmp, 'tools');
  return calls;
}

test('returns the binary named by the env override', async () => {
  const binary = executable(path.join(tmp, 'my-temporal'));
  process.env[TEMPORAL_CLI.envOverride] = binary;
  await expect(ensureGoTool(TEMPORAL_CLI)).resolves.toBe(binary);
});

test('refuses an override that points nowhere, naming the variable', async () => {
  process.env[TEMPORAL_CLI.envOverride] = path.join(tmp, 'missing', 'temporal');
  await expect(ensureGoTool(TEMPORAL_CLI)).rejects.toThrow(
    /REFEREE_TEMPORAL_BIN=.*missing\/temporal: no executable file/,
  );
});

test('reuses a cached build without running go', async () => {
  const calls = useFakeGo();
  const cached = executable(path.join(tmp, 'tools', 'faketool@v0.0.1', 'faketool'));
  await expect(ensureGoTool(FAKE)).resolves.toBe(cached);
  expect(fs.existsSync(calls)).toBe(false);
});

test('concurrent callers share one go install into the tools cache', async () => {
  const calls = useFakeGo();
  const lines: string[] = [];
  const results = await Promise.all([
    ensureGoTool(FAKE, (l) => lines.push(l)),
    ensureGoTool(FAKE, (l) => lines.push(l)),
  ]);

  const expected = path.join(tmp, 'tools', 'faketool@v0.0.1', 'faketool');
  expect(results).toEqual([expected, expected]);
  expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toEqual([
    'install example.com/fake/cmd/faketool@v0.0.1 GOFLAGS=-mod=mod',
  ]);
  const announced = lines.find((line) =>
    line.startsWith('building faketool v0.0.1 from source with go install'),
  );
  expect(announced).toMatch(/first run only, about 3-4 minutes/);
  expect(announced).toContain('REFEREE_TEST_FAKETOOL_BIN');
  expect(fs.readdirSync(path.join(tmp, 'tools'))).toEqual(['faketool@v0.0.1']);
});

test('a failed build keeps only its log and names the override', async () => {
  useFakeGo();
  process.env.FAKE_GO_FAIL = '1';
  await expect(ensureGoTool(FAKE)).rejects.toThrow(/REFEREE_TEST_FAKETOOL_BIN[\s\S]*fake build error/);
  expect(fs.readdirSync(path.join(tmp, 'tools'))).toEqual(['faketool@v0.0.1.build.log']);
});

test('a lock left by a dead process is taken over', async () => {
  const calls = useFakeGo();
  const lockDir = path.join(tmp, 'tools', 'faketool@v0.0.1.lock');
  fs.mkdirSync(lockDir, { recursive: true });
  // pid 2^22 + 1 is above Linux's pid_max limit, so it can never be alive.
  fs.writeFileSync(path.join(lockDir, 'owner'), JSON.stringify({ pid: 4194305, host: os.hostname() }));
  await expect(ensureGoTool(FAKE)).resolves.toBe(path.join(tmp, 'tools', 'faketool@v0.0.1', 'faketool'));
  expect(fs.readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
});
