import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { VerifiedObjectCache } from '../../storage/verifiedCache';

let parentDir: string;

beforeEach(async () => {
  parentDir = await mkdtemp(join(tmpdir(), 'referee-cache-test-'));
});

afterEach(async () => {
  await rm(parentDir, { recursive: true, force: true });
});

const object = (sha256: string, sizeBytes: number) => ({ sha256, sizeBytes, etag: `"${sha256}"` });

describe('VerifiedObjectCache', () => {
  it('keeps objects in owner-only files of an owner-only folder, removed at close', async () => {
    const cache = new VerifiedObjectCache({ parentDir, maxBytes: 1000, recheckAfterMs: 0 });
    await cache.start();
    await cache.admit(object('aa', 3), { bytes: Buffer.from('abc') });
    const entry = cache.lookup('aa', 3)!;
    expect(await readFile(entry.path, 'utf8')).toBe('abc');
    expect((await stat(entry.path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(entry.path))).mode & 0o777).toBe(0o700);
    await cache.close();
    await expect(stat(dirname(entry.path))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('evicts the least recently served objects past its size limit, and never keeps one larger than it', async () => {
    const cache = new VerifiedObjectCache({ parentDir, maxBytes: 10, recheckAfterMs: 0 });
    await cache.start();
    await cache.admit(object('a', 4), { bytes: Buffer.alloc(4) });
    await cache.admit(object('b', 4), { bytes: Buffer.alloc(4) });
    expect(cache.lookup('a', 4)).toBeDefined(); // a is now the most recently served
    await cache.admit(object('c', 4), { bytes: Buffer.alloc(4) });
    expect(cache.lookup('b', 4)).toBeUndefined();
    expect(cache.lookup('a', 4)).toBeDefined();
    expect(cache.lookup('c', 4)).toBeDefined();
    expect(cache.usedBytes).toBe(8);
    await cache.admit(object('huge', 11), { bytes: Buffer.alloc(11) });
    expect(cache.lookup('huge', 11)).toBeUndefined();
    await cache.close();
  });

  it('answers only for the recorded size, and forgets an evicted object', async () => {
    const cache = new VerifiedObjectCache({ parentDir, maxBytes: 100, recheckAfterMs: 0 });
    await cache.start();
    await cache.admit(object('d', 2), { bytes: Buffer.from('hi') });
    expect(cache.lookup('d', 3)).toBeUndefined();
    await cache.evict('d');
    expect(cache.lookup('d', 2)).toBeUndefined();
    expect(cache.usedBytes).toBe(0);
    await cache.close();
  });

  it('asks for a recheck once the window since S3 last showed the object unchanged has passed', async () => {
    let now = 1_000;
    const cache = new VerifiedObjectCache({ parentDir, maxBytes: 100, recheckAfterMs: 500, now: () => now });
    await cache.start();
    await cache.admit(object('e', 2), { bytes: Buffer.from('ok') });
    const entry = cache.lookup('e', 2)!;
    now += 499;
    expect(cache.needsRecheck(entry)).toBe(false);
    now += 1;
    expect(cache.needsRecheck(entry)).toBe(true);
    cache.markChecked(entry);
    expect(cache.needsRecheck(entry)).toBe(false);
    const always = new VerifiedObjectCache({ parentDir, maxBytes: 100, recheckAfterMs: 0, now: () => now });
    await always.start();
    await always.admit(object('f', 2), { bytes: Buffer.from('ok') });
    expect(always.needsRecheck(always.lookup('f', 2)!)).toBe(true);
    await Promise.all([cache.close(), always.close()]);
  });
});
