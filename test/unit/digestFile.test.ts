import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestFile } from '../../storage/objectStore';

describe('digestFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'digest-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['empty', 0],
    ['small (read whole)', 1000],
    ['at the whole-read bound', 1024 * 1024],
    ['large (streamed)', 3 * 1024 * 1024 + 7],
  ])('%s: the same SHA-256 and size with or without a known size', async (_name, size) => {
    const bytes = randomBytes(size);
    const path = join(dir, `f-${size}`);
    await writeFile(path, bytes);
    const expected = { sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: size };
    expect(await digestFile(path)).toEqual(expected);
    expect(await digestFile(path, size)).toEqual(expected);
  });

  it('reports the bytes read, not the size it was told (a file that changed after its stat)', async () => {
    const path = join(dir, 'grew');
    await writeFile(path, Buffer.alloc(500, 1));
    expect((await digestFile(path, 100)).sizeBytes).toBe(500);
  });
});
