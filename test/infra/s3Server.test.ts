import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { ensureGoTool, VERSITYGW } from '../../infra/goTools';
import { type S3Server, startS3Server } from '../../infra/s3Server';
import { createS3Client } from '../../storage/objectStore';

const BUCKET = 'referee-artifacts';
let binary: string;
let rootDir: string;
let server: S3Server;
let client: S3Client;

beforeAll(async () => {
  binary = await ensureGoTool(VERSITYGW); // builds once (minutes) unless cached or REFEREE_VERSITYGW_BIN is set
  rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-s3-'));
  server = await startS3Server({
    binary,
    rootDir: path.join(rootDir, 'objects'),
    buckets: [BUCKET, 'second-bucket'],
    logFile: path.join(rootDir, 'versitygw.log'),
  });
  client = createS3Client(server);
}, 15 * 60_000);

afterAll(async () => {
  client?.destroy();
  await server?.stop();
  if (rootDir) fs.rmSync(rootDir, { recursive: true, force: true });
});

/** A body that arrives in many small chunks, like an HTTP upload streamed through. */
function chunked(data: Buffer, chunkSize: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunkSize) chunks.push(data.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

async function roundTrip(key: string, data: Buffer, chunkSize: number): Promise<Buffer> {
  await client.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: chunked(data, chunkSize),
      ContentLength: data.length,
    }),
  );
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  if (!got.Body) throw new Error('GetObject returned no body');
  return Buffer.from(await got.Body.transformToByteArray());
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

test('creates the requested buckets', async () => {
  const { Buckets } = await client.send(new ListBucketsCommand({}));
  expect(Buckets?.map((b) => b.Name).sort()).toEqual([BUCKET, 'second-bucket']);
});

test('round-trips every byte value from a stream of small chunks', async () => {
  const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(10_000)]);
  const back = await roundTrip('papers/all bytes ü.bin', data, 1000);
  expect(back.equals(data)).toBe(true);

  const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'papers/all bytes ü.bin' }));
  expect(head.ContentLength).toBe(data.length);
  // Objects are plain files below <rootDir>/<bucket>/.
  expect(
    fs.readFileSync(path.join(rootDir, 'objects', BUCKET, 'papers', 'all bytes ü.bin')).equals(data),
  ).toBe(true);
});

test('round-trips a 20 MiB stream upload', async () => {
  const data = randomBytes(20 * 1024 * 1024);
  const back = await roundTrip('big/20MiB.bin', data, 64 * 1024);
  expect(back.length).toBe(data.length);
  expect(sha256(back)).toBe(sha256(data));
});

test('round-trips an empty object', async () => {
  const back = await roundTrip('empty', Buffer.alloc(0), 1);
  expect(back.length).toBe(0);
});

test('a second server on the same root keeps objects and existing buckets', async () => {
  const data = randomBytes(4096);
  await roundTrip('kept.bin', data, 4096);
  const again = await startS3Server({ binary, rootDir: path.join(rootDir, 'objects'), buckets: [BUCKET] });
  const otherClient = createS3Client(again);
  try {
    const got = await otherClient.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'kept.bin' }));
    expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(data)).toBe(true);
  } finally {
    otherClient.destroy();
    await again.stop();
  }
});
