import type { SqlQuery } from '../shared/sql';

/** An authentication failure, for the identity audit (never the credential itself). */
export const insertAuthFailure = (row: {
  service: string;
  memberId: string | null;
  keyId: string | null;
  detail: Record<string, unknown>;
}): SqlQuery => ({
  sql: `INSERT INTO identity_audit (service, kind, member_id, key_id, detail)
        VALUES ($1, 'authentication_failed', $2, $3, $4)`,
  params: [row.service, row.memberId, row.keyId, JSON.stringify(row.detail)],
});

/** A write request made with an API key: method, path and status, for the key's activity log. */
export const insertWriteRequest = (row: {
  keyId: string;
  method: string;
  path: string;
  status: number;
}): SqlQuery => ({
  sql: `INSERT INTO key_events (key_id, kind, method, path, status) VALUES ($1, 'write_request', $2, $3, $4)`,
  params: [row.keyId, row.method, row.path, row.status],
});
