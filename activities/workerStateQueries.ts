import type { DataSource } from 'typeorm';

/** What the worker's metrics read from PostgreSQL when scraped (observability/workerMetrics.ts). */
export function workerStateQueries(dataSource: DataSource) {
  return {
    async runningImports() {
      const rows: Array<{
        service: string;
        id: string;
        files_total: number;
        files_stored: number;
        counts: Record<string, number> | null;
      }> = await dataSource.query(
        `SELECT r.service, r.id::text, r.files_total, r.counts,
                (SELECT count(*)::int FROM import_artifact_receipts a
                  WHERE a.import_run_id = r.id AND a.stored_at IS NOT NULL) AS files_stored
           FROM import_runs r WHERE r.status = 'RUNNING'`,
      );
      return rows.map((row) => ({
        service: row.service,
        importId: row.id,
        filesPlanned: row.files_total,
        filesStored: row.files_stored,
        records: Object.fromEntries(
          Object.entries(row.counts ?? {}).filter(
            (entry): entry is [string, number] => typeof entry[1] === 'number',
          ),
        ),
      }));
    },
    async storageFindings() {
      const rows: Array<{ kind: string; count: number }> = await dataSource.query(
        'SELECT kind, count(*)::int AS count FROM storage_audit GROUP BY kind',
      );
      return rows;
    },
    async projectionRepairs() {
      const rows: Array<{ service: string; count: number }> = await dataSource.query(
        'SELECT service, count(*)::int AS count FROM projection_repairs GROUP BY service',
      );
      return rows;
    },
    async latestImports() {
      const rows: Array<{ service: string; finished_at: Date; status: string }> = await dataSource.query(
        `SELECT DISTINCT ON (service) service, finished_at, status FROM import_runs
          WHERE finished_at IS NOT NULL ORDER BY service, finished_at DESC`,
      );
      return rows.map((row) => ({
        service: row.service,
        finishedAt: row.finished_at,
        failed: row.status === 'FAILED',
      }));
    },
    async keysExpiringSoon(days: number) {
      const rows: Array<{ service: string; count: number }> = await dataSource.query(
        `SELECT service, count(*)::int AS count FROM api_keys
          WHERE revoked_at IS NULL AND expires_at > now() AND expires_at <= now() + make_interval(days => $1)
            AND last_used_at > now() - make_interval(days => $1)
          GROUP BY service`,
        [days],
      );
      return rows;
    },
  };
}
