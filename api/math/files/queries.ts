import type { Queryable } from '../../../entities/queryable';

/** Takes a transfer lease if the key holds fewer than `limit` (lock, purge, count and insert in one round trip). */
export async function acquireTransferLease(
  db: Queryable,
  lease: { leaseId: string; keyId: string; direction: 'upload' | 'download'; operationId: string },
  limit: number,
  leaseSeconds: number,
): Promise<boolean> {
  const [{ acquired }]: Array<{ acquired: boolean }> = await db.query(
    'SELECT acquire_file_transfer_lease($1, $2, $3, $4, $5, $6) AS acquired',
    [lease.leaseId, lease.keyId, lease.direction, lease.operationId, limit, leaseSeconds],
  );
  return acquired;
}

export async function renewTransferLease(
  db: Queryable,
  leaseId: string,
  leaseSeconds: number,
): Promise<void> {
  await db.query(
    'UPDATE file_transfer_leases SET expires_at = now() + make_interval(secs => $2) WHERE lease_id = $1',
    [leaseId, leaseSeconds],
  );
}

export async function releaseTransferLease(db: Queryable, leaseId: string): Promise<void> {
  await db.query('DELETE FROM file_transfer_leases WHERE lease_id = $1', [leaseId]);
}

/** A stored object that is missing or not what was stored, for the storage audit; returns the record's id. */
export async function insertStorageFailure(
  db: Queryable,
  failure: {
    kind: 'object_missing' | 'object_mismatch';
    subjectType: string;
    subjectId: string;
    objectKey: string;
    expectedSizeBytes: number | string;
    expectedSha256: string;
    actualSizeBytes: number | string | null;
    actualSha256: string | null;
    memberId: string;
    keyId: string;
    detail: Record<string, unknown>;
  },
): Promise<string> {
  const [row]: Array<{ id: string }> = await db.query(
    `INSERT INTO storage_audit (service, kind, subject_type, subject_id, object_key, expected_size_bytes,
       expected_sha256, actual_size_bytes, actual_sha256, member_id, key_id, detail)
     VALUES ('math', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text`,
    [
      failure.kind,
      failure.subjectType,
      failure.subjectId,
      failure.objectKey,
      failure.expectedSizeBytes,
      failure.expectedSha256,
      failure.actualSizeBytes,
      failure.actualSha256,
      failure.memberId,
      failure.keyId,
      JSON.stringify(failure.detail),
    ],
  );
  return row.id;
}
