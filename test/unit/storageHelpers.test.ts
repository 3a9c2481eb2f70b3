import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { NoSuchKey, type S3Client } from '@aws-sdk/client-s3';
import { uploadHeaders } from '../../api/math/attachments/schemas';
import {
  attachmentDisposition,
  safeFilename,
  withoutFormatCharacters,
} from '../../api/math/files/contentDisposition';
import { sniffPictureType } from '../../api/math/bugReports/picture';
import { spoolWithDigest, UploadIncompleteError, UploadTooLargeError } from '../../storage/hashingUpload';
import {
  fetchVerifiedObject,
  StoredObjectMismatchError,
  StoredObjectMissingError,
} from '../../storage/verifiedDownload';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const spoolDir = mkdtempSync(join(tmpdir(), 'referee-unit-spool-'));
const spools = async () => readdir(spoolDir);
const collect = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('spoolWithDigest', () => {
  it('hashes, counts and keeps the head of a body streamed in chunks', async () => {
    const bytes = randomBytes(300_000);
    const spooled = await spoolWithDigest(Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]), {
      maxBytes: bytes.length,
      headBytes: 12,
      spoolDir,
    });
    expect(spooled).toMatchObject({ sizeBytes: bytes.length, sha256: sha256(bytes) });
    expect(spooled.md5Base64).toBe(createHash('md5').update(bytes).digest('base64'));
    expect(spooled.head.equals(bytes.subarray(0, 12))).toBe(true);
    expect((await readFile(spooled.path)).equals(bytes)).toBe(true);
    await spooled.dispose();
    expect(existsSync(spooled.path)).toBe(false);
  });

  it('refuses one byte over the limit, leaves no file and drains the source without destroying it', async () => {
    const source = new PassThrough();
    const spooling = spoolWithDigest(source, { maxBytes: 10, spoolDir });
    source.write(Buffer.alloc(10));
    source.write(Buffer.alloc(1));
    await expect(spooling).rejects.toBeInstanceOf(UploadTooLargeError);
    source.end(Buffer.alloc(1000));
    await new Promise((resolve) => source.once('end', resolve));
    expect(source.readableEnded).toBe(true);
    expect(await spools()).toEqual([]);
  });

  it('reports a source that closes before its end as incomplete', async () => {
    const source = new PassThrough();
    const spooling = spoolWithDigest(source, { maxBytes: 100, spoolDir });
    source.write(Buffer.alloc(5));
    source.destroy();
    await expect(spooling).rejects.toBeInstanceOf(UploadIncompleteError);
    expect(await spools()).toEqual([]);
  });

  it('accepts an empty body (the caller decides whether that is allowed)', async () => {
    const spooled = await spoolWithDigest(Readable.from([]), { maxBytes: 10, spoolDir });
    expect(spooled.sizeBytes).toBe(0);
    await spooled.dispose();
  });
});

/** A stand-in for S3's GetObject, enough to exercise verification without a server. */
function fakeS3(object: { body: Buffer; contentLength?: number } | 'missing'): S3Client {
  return {
    send: async () => {
      if (object === 'missing') throw new NoSuchKey({ message: 'gone', $metadata: { httpStatusCode: 404 } });
      return { Body: Readable.from([object.body]), ContentLength: object.contentLength };
    },
  } as unknown as S3Client;
}

describe('fetchVerifiedObject', () => {
  const bytes = randomBytes(5000);
  const recorded = { key: 'k', sizeBytes: bytes.length, sha256: sha256(bytes) };

  it('verifies in memory below the limit and through a temporary file above it, removing the file after serving', async () => {
    const small = await fetchVerifiedObject(fakeS3({ body: bytes }), 'b', recorded, { spoolDir });
    expect(small.spooledTo).toBe('memory');
    expect((await collect(small.open())).equals(bytes)).toBe(true);

    const large = await fetchVerifiedObject(fakeS3({ body: bytes }), 'b', recorded, {
      spoolDir,
      memoryLimitBytes: 100,
    });
    expect(large.spooledTo).toBe('file');
    expect(await spools()).toHaveLength(1);
    expect((await collect(large.open())).equals(bytes)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await spools()).toEqual([]);
  });

  it('refuses other bytes of the same size, naming both digests', async () => {
    const other = Buffer.from(bytes);
    other[0] ^= 1;
    const error = await fetchVerifiedObject(fakeS3({ body: other }), 'b', recorded, {
      spoolDir,
      memoryLimitBytes: 100,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoredObjectMismatchError);
    expect((error as StoredObjectMismatchError).actual).toEqual({
      sizeBytes: bytes.length,
      sha256: sha256(other),
    });
    expect(await spools()).toEqual([]);
  });

  it('refuses by the announced length before reading, and stops reading past the recorded size', async () => {
    const longer = Buffer.concat([bytes, Buffer.from('x')]);
    const announced = await fetchVerifiedObject(
      fakeS3({ body: longer, contentLength: longer.length }),
      'b',
      recorded,
    ).catch((e: unknown) => e);
    expect((announced as StoredObjectMismatchError).actual).toEqual({
      sizeBytes: longer.length,
      sha256: null,
    });
    const unannounced = await fetchVerifiedObject(fakeS3({ body: longer }), 'b', recorded, {
      spoolDir,
      memoryLimitBytes: 100,
    }).catch((e: unknown) => e);
    expect((unannounced as StoredObjectMismatchError).actual).toEqual({ sizeBytes: null, sha256: null });
    expect(await spools()).toEqual([]);
  });

  it('reports a missing object', async () => {
    await expect(fetchVerifiedObject(fakeS3('missing'), 'b', recorded)).rejects.toBeInstanceOf(
      StoredObjectMissingError,
    );
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187)', () => {
    expect(attachmentDisposition('q1-report.md')).toBe(
      `attachment; filename="q1-report.md"; filename*=UTF-8''q1-report.md`,
    );
    expect(attachmentDisposition('Über "50%".txt')).toBe(
      `attachment; filename="_ber _50__.txt"; filename*=UTF-8''%C3%9Cber%20%2250%25%22.txt`,
    );
  });

  it('strips folders and control characters and never yields an empty name', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\dir\\x.bin')).toBe('x.bin');
    expect(safeFilename('a\r\nb')).toBe('ab');
    expect(safeFilename('..')).toBe('download');
    expect(safeFilename('')).toBe('download');
    expect(attachmentDisposition('evil\r\nSet-Cookie: x')).not.toMatch(/[\r\n]/);
  });

  it('strips bidi and other format characters, which make a name read as another', () => {
    // Shown as "invoiceexe.pdf" with the right-to-left override in it.
    expect(safeFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(safeFilename('a\u2066b\u2069c\u200Bd\uFEFF.txt')).toBe('abcd.txt');
    expect(safeFilename('\u202E\u200F')).toBe('download');
    expect(withoutFormatCharacters('Notes für Prüfung.bin')).toBe('Notes für Prüfung.bin');
  });

  it('stores an uploaded name without format characters, and refuses one made of nothing else', () => {
    const name = (raw: string) => uploadHeaders.validate({ 'x-filename': encodeURIComponent(raw) });
    expect(name('invoice\u202Efdp.exe').value).toEqual({ 'x-filename': 'invoicefdp.exe' });
    expect(name('\u202E\u202D').error?.message).toMatch(/plain file name/);
  });
});

describe('sniffPictureType', () => {
  it('recognises PNG, JPEG and WebP by their magic numbers only', () => {
    expect(sniffPictureType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffPictureType(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(sniffPictureType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffPictureType(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
    expect(sniffPictureType(Buffer.from('<svg></svg>'))).toBeNull();
    expect(sniffPictureType(Buffer.from('89504e47', 'hex'))).toBeNull();
    expect(sniffPictureType(Buffer.alloc(0))).toBeNull();
  });
});
