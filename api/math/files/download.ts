import type { Readable } from 'node:stream';
import { HeadObjectCommand, NotFound, S3ServiceException } from '@aws-sdk/client-s3';
import type { CachedObject } from '../../shared/verifiedObjects';
import {
  fetchVerifiedObject,
  StoredObjectMismatchError,
  StoredObjectMissingError,
} from '../../../storage/verifiedDownload';
import { apiKeyOf, type Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
// The math service's own dependencies (the verified cache) on AppDeps.
import '../deps';
import { ApiError, problems } from '../../kernel/errors';
import type { HttpExchange, OperationResponse } from '../../kernel/operation';
import { attachmentDisposition } from './contentDisposition';
import { insertStorageFailure } from './queries';
import { acquireTransferSlot, type TransferSlot } from './transfers';

/** What a download serves: a stored object with the size and SHA-256 recorded when it was written. */
export interface StoredFile {
  subjectType: 'artifact' | 'attachment' | 'bug_report_picture';
  subjectId: string;
  /** How the subject is named in messages, e.g. "Artifact demo-art-q1-report". */
  label: string;
  objectKey: string;
  sizeBytes: number;
  sha256: string;
  mediaType: string;
  filename: string;
}

interface DownloadContext {
  deps: AppDeps;
  principal: Principal;
  http: HttpExchange;
  /** The declared `If-None-Match` header, when sent. */
  ifNoneMatch: string | undefined;
  operationId: string;
  /** The transfer slot, when the caller's lookup took it already (else it is taken here). */
  slot?: TransferSlot;
}

const etagOf = (sha256: string) => `"${sha256}"`;

/**
 * Serves a stored file only after its bytes were read from S3 and matched the recorded size and SHA-256
 * (see storage/verifiedDownload.ts). A missing or altered object is audited and refused with 502; S3 being
 * unreachable is a 503. The caller has already decided that the principal may read the file.
 */
export async function serveVerifiedFile(
  { deps, principal, http, ifNoneMatch: held, operationId, slot: taken }: DownloadContext,
  file: StoredFile,
): Promise<OperationResponse> {
  const etag = etagOf(file.sha256);
  if (ifNoneMatch(held ?? '', etag)) {
    await taken?.release();
    return { status: 304, headers: { ETag: etag, 'Cache-Control': 'private, no-cache' } };
  }

  const slot = taken ?? (await acquireTransferSlot(deps, principal, 'download', operationId));
  const clientGone = new AbortController();
  const onClose = () => {
    if (!http.response.writableFinished) clientGone.abort();
  };
  http.response.once('close', onClose);
  try {
    const { body, source } = await verifiedBody(deps, file, clientGone.signal);
    body.once('close', () => void slot.release());
    http.response.once('close', () => {
      if (http.response.writableFinished) deps.metrics.downloadServed(source, file.sizeBytes);
    });
    return {
      status: 200,
      body,
      headers: {
        'Content-Type': file.mediaType,
        'Content-Length': String(file.sizeBytes),
        ETag: etag,
        'Repr-Digest': `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`,
        'Content-Disposition': attachmentDisposition(file.filename),
        'Cache-Control': 'private, no-cache',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  } catch (error) {
    await slot.release();
    throw await toDownloadProblem(deps, principal, file, error);
  } finally {
    http.response.off('close', onClose);
  }
}

/**
 * The file's verified bytes: from the process's cache of verified objects, else read from S3 and verified
 * before the first byte, then kept in the cache. A cached copy is served as it is while S3 showed the object
 * unchanged within the recheck window; after it, one HEAD must show the same ETag and size first. An object
 * altered or deleted in S3 is noticed there: the copy is dropped and the object read again, so it is refused
 * and audited like any mismatch. Either way only verified bytes are ever served.
 */
async function verifiedBody(
  deps: AppDeps,
  file: StoredFile,
  signal: AbortSignal,
): Promise<{ body: Readable; source: 'cache' | 'storage' }> {
  const cache = deps.verifiedCache;
  const cached = cache?.lookup(file.sha256, file.sizeBytes);
  if (cache && cached) {
    if (!cache.needsRecheck(cached)) {
      deps.metrics.verifiedCacheLookup('hit');
      return { body: cache.open(cached), source: 'cache' };
    }
    if (await stillInStorage(deps, file.objectKey, cached, signal)) {
      cache.markChecked(cached);
      deps.metrics.verifiedCacheLookup('revalidated');
      return { body: cache.open(cached), source: 'cache' };
    }
    await cache.evict(cached.sha256);
    deps.metrics.verifiedCacheLookup('stale');
  } else {
    deps.metrics.verifiedCacheLookup('miss');
  }
  const verified = await fetchVerifiedObject(
    deps.s3,
    deps.config.s3.bucket,
    { key: file.objectKey, sizeBytes: file.sizeBytes, sha256: file.sha256 },
    { signal },
  );
  if (cache && verified.etag) {
    const object = { sha256: verified.sha256, sizeBytes: verified.sizeBytes, etag: verified.etag };
    const source = verified.cacheSource();
    // A spool file is linked before serving removes it; a buffer is written while the response goes out.
    if ('file' in source) await cache.admit(object, source);
    else void cache.admit(object, source);
  }
  return { body: verified.open(), source: 'storage' };
}

/** Whether S3 still holds the object as it was verified: the same ETag and size (a missing one: no). */
async function stillInStorage(
  deps: AppDeps,
  key: string,
  cached: CachedObject,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const head = await deps.s3.send(new HeadObjectCommand({ Bucket: deps.config.s3.bucket, Key: key }), {
      abortSignal: signal,
    });
    return head.ETag === cached.etag && head.ContentLength === cached.sizeBytes;
  } catch (error) {
    if (error instanceof NotFound) return false;
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
    throw error;
  }
}

function ifNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

async function toDownloadProblem(
  deps: AppDeps,
  principal: Principal,
  file: StoredFile,
  error: unknown,
): Promise<ApiError> {
  if (error instanceof StoredObjectMissingError || error instanceof StoredObjectMismatchError) {
    const missing = error instanceof StoredObjectMissingError;
    deps.metrics.downloadRefused(missing ? 'missing' : 'mismatch');
    const auditId = await recordStorageFailure(deps, principal, file, error);
    deps.logger.error(
      { subject: `${file.subjectType}/${file.subjectId}`, key: file.objectKey, auditId, err: error.message },
      'stored object failed verification; not served',
    );
    const what = missing ? 'is missing from storage' : 'does not match its recorded size and SHA-256';
    return problems.storedObjectInvalid(
      missing ? 'stored_object_missing' : 'stored_object_mismatch',
      `${file.label} ${what}; no byte was served. The incident was recorded (storage audit ${auditId}); an operator must restore the object (for example by importing the run again).`,
      { storage_audit_id: auditId },
    );
  }
  if (error instanceof ApiError) return error;
  if ((error as Error)?.name === 'AbortError') {
    // The client went away while the object was being verified; nobody reads this answer.
    return problems.badRequest('client_closed_request', 'The client closed the request.');
  }
  deps.logger.warn({ err: error, key: file.objectKey }, 'object storage read failed');
  return problems.unavailable('object storage');
}

async function recordStorageFailure(
  deps: AppDeps,
  principal: Principal,
  file: StoredFile,
  error: StoredObjectMissingError | StoredObjectMismatchError,
): Promise<string> {
  const actual =
    error instanceof StoredObjectMismatchError ? error.actual : { sizeBytes: null, sha256: null };
  return insertStorageFailure(deps.dataSource, {
    kind: error instanceof StoredObjectMissingError ? 'object_missing' : 'object_mismatch',
    subjectType: file.subjectType,
    subjectId: file.subjectId,
    objectKey: file.objectKey,
    expectedSizeBytes: file.sizeBytes,
    expectedSha256: file.sha256,
    actualSizeBytes: actual.sizeBytes,
    actualSha256: actual.sha256,
    memberId: principal.member.id,
    keyId: apiKeyOf(principal).id,
    detail: { message: error.message },
  });
}
