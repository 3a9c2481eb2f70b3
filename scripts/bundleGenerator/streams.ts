import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from './random';

/** Streams JSON text to a file, honouring back-pressure. */
export class JsonStream {
  private readonly stream: WriteStream;
  private first = true;

  constructor(path: string) {
    this.stream = createWriteStream(path);
  }

  async raw(text: string): Promise<void> {
    if (!this.stream.write(text)) await new Promise<void>((done) => this.stream.once('drain', done));
  }

  async open(key: string): Promise<void> {
    this.first = true;
    await this.raw(`,\n"${key}": [`);
  }

  async item(value: unknown): Promise<void> {
    await this.raw(`${this.first ? '\n' : ',\n'}${JSON.stringify(value)}`);
    this.first = false;
  }

  async close(): Promise<void> {
    await this.raw('\n]');
  }

  async end(): Promise<void> {
    await new Promise<void>((done, fail) =>
      this.stream.end((error?: Error | null) => (error ? fail(error) : done())),
    );
  }
}

/** A JSONL file written a record per line, hashed as it is written. */
export class JsonlFile {
  private readonly out: JsonStream;
  private readonly hash = createHash('sha256');

  constructor(path: string) {
    this.out = new JsonStream(path);
  }

  async item(value: unknown): Promise<void> {
    const line = `${JSON.stringify(value)}\n`;
    this.hash.update(line);
    await this.out.raw(line);
  }

  async end(): Promise<string> {
    await this.out.end();
    return this.hash.digest('hex');
  }
}

/**
 * Writes a list of records either inline in the manifest or (layout `jsonl`) to `<key>.jsonl` beside it,
 * returning the manifest entry that names that file.
 */
export async function recordList(
  out: JsonStream,
  dir: string,
  key: string,
  layout: 'inline' | 'jsonl',
  write: (item: (value: unknown) => Promise<void>) => Promise<void>,
): Promise<Record<string, { path: string; sha256: string }>> {
  if (layout === 'inline') {
    await out.open(key);
    await write((value) => out.item(value));
    await out.close();
    return {};
  }
  const file = new JsonlFile(join(dir, `${key}.jsonl`));
  await write((value) => file.item(value));
  return { [`${key}_file`]: { path: `${key}.jsonl`, sha256: await file.end() } };
}

/** Writes a bundle file and returns the manifest's view of it (size always, SHA-256 for 90% of files). */
export async function bundleFile(dir: string, path: string, bytes: Buffer | string, withSha: boolean) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), bytes);
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  return withSha ? { size_bytes: size, sha256: sha256(bytes) } : { size_bytes: size };
}
