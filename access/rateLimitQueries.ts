import type { Queryable } from '../entities/queryable';

/** Adds consumption (milliseconds of refill) per subject; returns each subject's debt afterwards. */
export async function consumeRateLimitDebt(
  db: Queryable,
  entries: Array<{ subject: string; costMs: number }>,
): Promise<Map<string, number>> {
  const rows: Array<{ subject: string; debt_ms: number }> = await db.query(
    `INSERT INTO rate_limit_buckets AS b (subject, tat)
         SELECT s, now() + c * interval '1 millisecond' FROM unnest($1::text[], $2::float8[]) AS u(s, c)
         ON CONFLICT (subject) DO UPDATE
           SET tat = GREATEST(b.tat, now()) + (EXCLUDED.tat - now()), updated_at = now()
         RETURNING subject, GREATEST(extract(epoch FROM b.tat - now()) * 1000, 0)::float8 AS debt_ms`,
    [entries.map((e) => e.subject), entries.map((e) => e.costMs)],
  );
  return new Map(rows.map((r) => [r.subject, Number(r.debt_ms)]));
}

/** The current debt of one subject (0 when unknown). */
export async function readRateLimitDebt(db: Queryable, subject: string): Promise<number> {
  const rows: Array<{ debt_ms: number }> = await db.query(
    `SELECT GREATEST(extract(epoch FROM tat - now()) * 1000, 0)::float8 AS debt_ms
           FROM rate_limit_buckets WHERE subject = $1`,
    [subject],
  );
  return rows[0] ? Number(rows[0].debt_ms) : 0;
}
