import type { DataSource } from 'typeorm';

/* status's statements: what the database says of the schema, the imports, the keys and the webhook endpoints. */

export async function serverVersion(dataSource: DataSource): Promise<string> {
  const [version]: Array<{ server_version: string }> = await dataSource.query('SHOW server_version');
  return version.server_version;
}

/** The last migration applied, or null when none was (or the migrations table is not there). */
export async function latestMigration(dataSource: DataSource): Promise<string | null> {
  const [applied]: Array<{ name: string } | undefined> = await dataSource
    .query('SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1')
    .catch(() => []);
  return applied?.name ?? null;
}

export async function importCounts(dataSource: DataSource): Promise<{ running: number; failed: number }> {
  const [imports]: Array<{ running: number; failed: number }> = await dataSource.query(
    `SELECT count(*) FILTER (WHERE status = 'RUNNING')::int AS running,
            count(*) FILTER (WHERE status = 'FAILED')::int AS failed
       FROM import_runs`,
  );
  return imports;
}

export async function oldestRunningImport(
  dataSource: DataSource,
): Promise<{ service: string; workflow_id: string; subject_id: string; started_at: Date } | undefined> {
  const [oldest]: Array<{ service: string; workflow_id: string; subject_id: string; started_at: Date }> =
    await dataSource.query(
      `SELECT service, workflow_id, subject_id, started_at FROM import_runs
        WHERE status = 'RUNNING' ORDER BY started_at LIMIT 1`,
    );
  return oldest;
}

/** Unrevoked keys that expire within `days`, soonest first. */
export function keysExpiringWithin(
  dataSource: DataSource,
  days: number,
): Promise<Array<{ id: string; service: string; name: string; member: string; expires_at: Date }>> {
  return dataSource.query(
    `SELECT k.id, k.service, k.name, m.identity_id AS member, k.expires_at
       FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.revoked_at IS NULL AND k.expires_at > now() AND k.expires_at <= now() + $1 * interval '1 day'
      ORDER BY k.expires_at`,
    [days],
  );
}

export async function countLiveWebhookEndpoints(dataSource: DataSource): Promise<number> {
  const [{ live }]: Array<{ live: number }> = await dataSource.query(
    'SELECT count(*)::int AS live FROM webhook_endpoints WHERE deleted_at IS NULL',
  );
  return live;
}

/** Endpoints disabled or failing, with their pending deliveries. */
export function unhealthyWebhookEndpoints(dataSource: DataSource): Promise<
  Array<{
    id: string;
    service: string;
    url: string;
    status: string;
    disabled_reason: string | null;
    failing_since: Date | null;
    pending: number;
  }>
> {
  return dataSource.query(
    `SELECT e.id, e.service, e.url, e.status, e.disabled_reason, e.failing_since,
            (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'PENDING')::int
              AS pending
       FROM webhook_endpoints e
      WHERE e.deleted_at IS NULL AND (e.status = 'DISABLED' OR e.failing_since IS NOT NULL)
      ORDER BY e.created_at, e.id`,
  );
}
