import type { Queryable } from '../entities/queryable';
import type { Role, ServiceName } from '../entities/types';

/** A member of one service, as a console session sees it. */
export interface SessionMemberRow {
  service: ServiceName;
  id: string;
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: Role;
  enabled: boolean;
}

/** A console session and, when the service has one, the member its subject names there. */
export interface SessionRow {
  id: string;
  subject: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  /** Seconds since the last request, measured by PostgreSQL (one clock for every API process). */
  idle_seconds: number;
  member: SessionMemberRow | null;
}

const MEMBER_COLUMNS = `m.service, m.id::text, m.identity_id, m.username, m.display_name, m.email, m.role, m.enabled`;

/** Records a sign-in under way (expired ones are purged apart, by {@link purgeExpiredSignIns}). */
export async function insertSignIn(db: Queryable, secretHash: Buffer, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO console_sign_ins (secret_hash, expires_at) VALUES ($1, now() + make_interval(secs => $2))`,
    [secretHash, ttlSeconds],
  );
}

/** Deletes at most `batch` sign-ins past their expiry (through the `expires_at` index); returns how many went. */
export async function purgeExpiredSignIns(db: Queryable, batch: number): Promise<number> {
  const rows: unknown[] = await db.query(
    `WITH purged AS (
       DELETE FROM console_sign_ins WHERE secret_hash IN (
         SELECT secret_hash FROM console_sign_ins WHERE expires_at < now() ORDER BY expires_at LIMIT $1)
       RETURNING 1)
     SELECT 1 FROM purged`,
    [batch],
  );
  return rows.length;
}

/** Takes a sign-in (once): true when it existed and had not expired. (Statements wrapped in WITH … SELECT return rows.) */
export async function takeSignIn(db: Queryable, secretHash: Buffer): Promise<boolean> {
  const rows: Array<{ fresh: boolean }> = await db.query(
    `WITH taken AS (DELETE FROM console_sign_ins WHERE secret_hash = $1 RETURNING expires_at)
     SELECT expires_at > now() AS fresh FROM taken`,
    [secretHash],
  );
  return rows[0]?.fresh === true;
}

/** The members a subject is in each service (enabled or not). */
export async function membersOfSubject(db: Queryable, subject: string): Promise<SessionMemberRow[]> {
  return db.query(
    `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.identity_id = $1 ORDER BY m.service DESC`,
    [subject],
  );
}

export async function insertSession(
  db: Queryable,
  row: { id: string; secretHash: Buffer; subject: string; absoluteSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO console_sessions (id, secret_hash, subject, expires_at)
          VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [row.id, row.secretHash, row.subject, row.absoluteSeconds],
  );
}

/** A session by its secret's hash, with its subject's member in `service` (or in none, for the console's view). */
export async function lookupSession(
  db: Queryable,
  secretHash: Buffer,
  service: ServiceName | null,
): Promise<SessionRow | undefined> {
  const rows: Array<Omit<SessionRow, 'member'> & { member: SessionMemberRow | null }> = await db.query(
    `SELECT s.id, s.subject, s.created_at, s.last_seen_at, s.expires_at, s.ended_at,
            extract(epoch FROM now() - s.last_seen_at)::float8 AS idle_seconds,
            (SELECT row_to_json(x) FROM (SELECT ${MEMBER_COLUMNS} FROM members m
              WHERE m.identity_id = s.subject AND m.service = $2) x) AS member
       FROM console_sessions s WHERE s.secret_hash = $1`,
    [secretHash, service],
  );
  return rows[0];
}

/**
 * Moves a session's last request forward, at most once a minute (so a request rarely writes), and only while the
 * session is still live when the write runs: a request that read the session live before it went idle, expired or
 * ended (by another request, or an operator) must not revive it.
 */
export async function touchSession(db: Queryable, id: string, idleSeconds: number): Promise<void> {
  await db.query(
    `UPDATE console_sessions SET last_seen_at = now()
      WHERE id = $1 AND ended_at IS NULL AND expires_at > now()
        AND last_seen_at < now() - interval '1 minute'
        AND last_seen_at > now() - make_interval(secs => $2)`,
    [id, idleSeconds],
  );
}

/** Ends one session; false when it had ended already. */
export async function endSession(db: Queryable, id: string, reason: string): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `WITH ended AS (UPDATE console_sessions SET ended_at = now(), ended_reason = $2
                     WHERE id = $1 AND ended_at IS NULL RETURNING id)
     SELECT id FROM ended`,
    [id, reason],
  );
  return rows.length > 0;
}

/** Ends every open session of a subject (an operator's revocation); returns how many ended. */
export async function endSessionsOfSubject(db: Queryable, subject: string, reason: string): Promise<number> {
  const rows: unknown[] = await db.query(
    `WITH ended AS (UPDATE console_sessions SET ended_at = now(), ended_reason = $2
                     WHERE subject = $1 AND ended_at IS NULL RETURNING id)
     SELECT id FROM ended`,
    [subject, reason],
  );
  return rows.length;
}

/** Console sign-in events for the identity audit: one record per service. */
export async function insertConsoleAudit(
  db: Queryable,
  rows: Array<{ service: ServiceName; kind: string; memberId: string | null; detail: object }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO identity_audit (service, kind, member_id, detail)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::jsonb[])`,
    [
      rows.map((r) => r.service),
      rows.map((r) => r.kind),
      rows.map((r) => r.memberId),
      rows.map((r) => JSON.stringify(r.detail)),
    ],
  );
}
