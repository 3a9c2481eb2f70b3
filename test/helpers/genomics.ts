import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Role, Scope } from '../../entities/types';
import {
  type ImportGenomicsBundleResult,
  importGenomicsBundleWorkflowId,
} from '../../workflows/importGenomicsBundle/messages';
import { DEMO_DIR, http, type HttpResult, memberId, mintKey, type TestStack } from './stack';

export const GENOMICS_DEMO_DIR = join(DEMO_DIR, 'genomics');

/** A fresh, valid Idempotency-Key. */
export const ik = (): string => `test-${randomBytes(12).toString('hex')}`;

/** A genomics API call; mutations get a fresh Idempotency-Key unless one is given (or `key: null`). */
export function g<T = any>(
  stack: TestStack,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { token: string; body?: unknown; key?: string | null; headers?: Record<string, string> },
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const key = opts.key === undefined ? (method === 'GET' ? null : ik()) : opts.key;
  if (key) headers['idempotency-key'] = key;
  return http<T>(stack, method, path, { token: opts.token, body: opts.body, headers });
}

export const topicPath = (uid: string, rest = ''): string =>
  `/api/v1/topics/${encodeURIComponent(uid)}${rest}`;

/** Keys for the demo genomics members: ada (ADMIN), olga (OWNER), rui (REVIEWER), plus extra reviewers. */
export interface GenomicsActors {
  admin: string;
  owner: string;
  reviewer: string;
  otherReviewer: string;
  ruiId: string;
  veraId: string;
  olgaId: string;
  adaId: string;
  /** A key of the given member with only these scopes (and optionally a lower role). */
  limited(identityId: string, scopes: Scope[], role?: Role): Promise<string>;
}

export async function genomicsActors(stack: TestStack): Promise<GenomicsActors> {
  const token = async (identityId: string, opts: { role?: Role; scopes?: Scope[] } = {}) =>
    (await mintKey(stack, 'genomics', identityId, opts)).token;
  return {
    admin: await token('idp|ada'),
    owner: await token('idp|olga'),
    reviewer: await token('idp|rui'),
    otherReviewer: await token('idp|vera'),
    ruiId: await memberId(stack, 'genomics', 'idp|rui'),
    veraId: await memberId(stack, 'genomics', 'idp|vera'),
    olgaId: await memberId(stack, 'genomics', 'idp|olga'),
    adaId: await memberId(stack, 'genomics', 'idp|ada'),
    limited: (identityId, scopes, role) => token(identityId, { scopes, role }),
  };
}

/** The extra genomics reviewer the tests add next to the demo members. */
export const EXTRA_GENOMICS_MEMBERS = {
  genomics: [
    {
      identity_id: 'idp|vera',
      username: 'vera',
      display_name: 'Vera Reviewer',
      email: null,
      role: 'REVIEWER' as const,
      enabled: true,
    },
  ],
};

let topicCounter = 0;
/** A topic number no other test of the file uses. */
export const nextTopicNumber = (): number => 100_000 + ++topicCounter;

/** Creates a topic through the API and returns its uid. */
export async function createTopic(
  stack: TestStack,
  token: string,
  body: Partial<{ batch: string; topic: number; title: string; category: string; markdown: string }> = {},
): Promise<string> {
  const res = await g(stack, 'POST', '/api/v1/topics', {
    token,
    body: {
      batch: 'batch-500',
      topic: nextTopicNumber(),
      title: 'A topic',
      category: 'testing',
      markdown: '# Brief',
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`topic create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.topicUid as string;
}

/** Runs the genomics import workflow on a bundle folder and waits for it. */
export async function importGenomicsBundle(
  stack: TestStack,
  bundleDir = GENOMICS_DEMO_DIR,
): Promise<ImportGenomicsBundleResult> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(join(bundleDir, 'manifest.json'), 'utf8')) as {
    bundle: { bundle_id: string; batch: string };
  };
  return stack.temporal.workflow.execute('importGenomicsBundleWorkflow', {
    workflowId: importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id),
    taskQueue: stack.config.temporal.taskQueue,
    args: [{ bundleDir }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

/** Writes a bundle (manifest plus files) into a new temporary folder and returns the folder. */
export async function writeGenomicsBundle(
  manifest: object,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'referee-genomics-bundle-'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** A string of exactly `length` characters, built from a repeated pattern. */
export const chars = (length: number, pattern = 'abcdefghij'): string =>
  pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

/** A date-time `ms` from now. */
export const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString();

/** Polls `probe` until it returns a truthy value or the time is up. */
export async function eventually<T>(probe: () => Promise<T>, timeoutMs = 10_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
