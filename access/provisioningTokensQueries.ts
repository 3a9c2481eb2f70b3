import type { Queryable } from '../entities/queryable';

export interface ProvisioningTokenRow {
  id: string;
  name: string;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, created_by, created_at, last_used_at, revoked_at';

export async function insertProvisioningToken(
  db: Queryable,
  row: { id: string; name: string; secretHash: Buffer; createdBy: string },
): Promise<ProvisioningTokenRow> {
  const [inserted]: ProvisioningTokenRow[] = await db.query(
    `INSERT INTO scim_tokens (id, name, secret_hash, created_by) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [row.id, row.name, row.secretHash, row.createdBy],
  );
  return inserted;
}

export async function selectProvisioningTokens(db: Queryable): Promise<ProvisioningTokenRow[]> {
  return db.query(`SELECT ${COLUMNS} FROM scim_tokens ORDER BY created_at DESC, id`);
}

export async function selectProvisioningToken(
  db: Queryable,
  id: string,
): Promise<(ProvisioningTokenRow & { secret_hash: Buffer }) | undefined> {
  const rows: Array<ProvisioningTokenRow & { secret_hash: Buffer }> = await db.query(
    `SELECT ${COLUMNS}, secret_hash FROM scim_tokens WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** Revokes a token not yet revoked; undefined when there is no such token or it was revoked already. */
export async function markProvisioningTokenRevoked(
  db: Queryable,
  id: string,
): Promise<ProvisioningTokenRow | undefined> {
  const rows: ProvisioningTokenRow[] = await db.query(
    `WITH r AS (UPDATE scim_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
                RETURNING ${COLUMNS})
     SELECT * FROM r`,
    [id],
  );
  return rows[0];
}

/** Moves `last_used_at` at most once a minute, so a burst of requests rarely writes. */
export async function touchProvisioningToken(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE scim_tokens SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}

export async function insertProvisioningAudit(
  db: Queryable,
  row: {
    tokenId: string | null;
    method: string;
    path: string;
    status: number;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO scim_audit (token_id, method, path, status, detail) VALUES ($1, $2, $3, $4, $5)`,
    [row.tokenId, row.method, row.path, row.status, JSON.stringify(row.detail)],
  );
}
