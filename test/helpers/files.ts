import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { http as call, type TestStack } from './stack';

/** Factories and raw-HTTP tools for the file endpoints (uploads, verified downloads, bug reports). */

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: any;
}

/**
 * A request with full control of the body: a Buffer is sent with its Content-Length, a Readable is sent
 * chunked (unless a content-length header is given). Unlike fetch, never adds headers of its own.
 */
export function rawRequest(
  stack: TestStack,
  method: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string>; body?: Buffer | Readable } = {},
): Promise<RawResponse> {
  const url = new URL(path, stack.url);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (Buffer.isBuffer(opts.body)) headers['content-length'] ??= String(opts.body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const type = String(res.headers['content-type'] ?? '');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: type.includes('json') && body.length ? JSON.parse(body.toString('utf8')) : undefined,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!opts.body) req.end();
    else if (Buffer.isBuffer(opts.body)) req.end(opts.body);
    else opts.body.pipe(req);
  });
}

/** Uploads raw bytes to a task's attachments. */
export function uploadAttachment(
  stack: TestStack,
  taskId: string,
  token: string,
  body: Buffer | Readable,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(stack, 'POST', `/api/math/tasks/${taskId}/attachments`, {
    token,
    body,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Keys of every object in the stack's bucket under a prefix. */
export async function objectKeys(stack: TestStack, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await stack.s3.send(
      new ListObjectsV2Command({ Bucket: stack.config.s3.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

/**
 * A download left open without reading, so the server's transfer (and its slot) stays in flight until
 * `close()`. Resolves once the response headers have arrived.
 */
export function holdDownload(
  stack: TestStack,
  path: string,
  token: string,
): Promise<{ status: number; close(): void }> {
  const url = new URL(path, stack.url);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.pause();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** The first bytes of real picture formats followed by filler: enough for a server that judges by magic bytes. */
export const pictures = {
  png: (size = 256) =>
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]),
  jpeg: (size = 256) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]),
  webp: (size = 256) => {
    const header = Buffer.alloc(12);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(size - 8, 4);
    header.write('WEBP', 8, 'latin1');
    return Buffer.concat([header, randomBytes(size - 12)]);
  },
};

/** Posts a bug-report form (fields and an optional picture) with fetch's multipart encoder. */
export async function postBugReport(
  stack: TestStack,
  token: string,
  form: { description?: string; page_path?: string; picture?: { bytes: Buffer; type: string; name: string } },
  extra: Record<string, string> = {},
) {
  const data = new FormData();
  if (form.description !== undefined) data.set('description', form.description);
  if (form.page_path !== undefined) data.set('page_path', form.page_path);
  for (const [name, value] of Object.entries(extra)) data.set(name, value);
  if (form.picture)
    data.set('picture', new Blob([form.picture.bytes], { type: form.picture.type }), form.picture.name);
  const response = await fetch(`${stack.url}/api/bug-reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: data,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text,
  };
}

/** Applies a workflow action with the task's current version (through the API and its Temporal workflow). */
export async function act(stack: TestStack, token: string, taskId: string, action: Record<string, unknown>) {
  const task = await call(stack, 'GET', `/api/math/tasks/${taskId}`, { token });
  const res = await call(stack, 'POST', `/api/math/tasks/${taskId}`, {
    token,
    body: { version: task.body.version, ...action },
  });
  if (res.status !== 200)
    throw new Error(`${String(action.action)} on ${taskId}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Writes a bundle with one STANDARD checkpoint of `sizeBytes` pseudo-random bytes (and nothing else) to a
 * temporary folder, streaming it to disk; returns the folder and the checkpoint's SHA-256.
 */
export async function writeLargeArtifactBundle(
  runId: string,
  artifactId: string,
  sizeBytes: number,
): Promise<{ dir: string; sha256: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'referee-big-bundle-'));
  await mkdir(join(dir, 'files'));
  const hash = createHash('sha256');
  const out = createWriteStream(join(dir, 'files', 'big.gz'));
  const block = randomBytes(1024 * 1024);
  for (let written = 0; written < sizeBytes; written += block.length) {
    const piece = Buffer.from(block.subarray(0, Math.min(block.length, sizeBytes - written)));
    piece.writeUInt32BE(written >>> 20, 0);
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  await writeBundleManifest(dir, runId, [
    {
      artifact_id: artifactId,
      path: 'files/big.gz',
      kind: 'CHECKPOINT',
      class: 'STANDARD',
      media_type: 'application/gzip',
    },
  ]);
  return { dir, sha256: hash.digest('hex') };
}

/** A manifest with one topic, the given artifacts, and no reports or tasks. */
export async function writeBundleManifest(
  dir: string,
  runId: string,
  artifacts: Array<{ artifact_id: string; path: string; kind: string; class: string; media_type: string }>,
): Promise<void> {
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({
      format: 'referee.math-run/1',
      run: { run_id: runId, title: `Generated run ${runId}` },
      topics: [{ topic_id: `${runId}-topic`, title: 'Generated' }],
      artifacts,
      reports: [],
      tasks: [],
    }),
  );
}
