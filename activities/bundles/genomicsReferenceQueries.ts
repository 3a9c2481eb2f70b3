import type { Queryable } from '../../entities/queryable';

/** The workspace's lookups a genomics bundle's validation needs: what it refers to without listing. */

/** Which of `topics` (numbers in `batch`) the workspace has. */
export async function knownTopicNumbers(db: Queryable, batch: string, topics: number[]): Promise<string[]> {
  const rows: Array<{ topic: string }> = await db.query(
    'SELECT topic::text FROM genomics_topics WHERE batch = $1 AND topic = ANY($2::bigint[])',
    [batch, topics],
  );
  return rows.map((r) => r.topic);
}

/** Which of `campaigns` the workspace has. */
export async function knownCampaignIds(db: Queryable, campaigns: string[]): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(
    'SELECT id FROM genomics_campaigns WHERE id = ANY($1::text[])',
    [campaigns],
  );
  return rows.map((r) => r.id);
}
