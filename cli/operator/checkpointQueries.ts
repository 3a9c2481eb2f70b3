import type { DataSource } from 'typeorm';

/* The checkpoints (operator_checkpoints) from which reconcile and verify-storage resume an interrupted run. */

/** Where an interrupted check resumes: the last key it finished, and the totals counted up to there. */
export interface Checkpoint {
  position: string;
  totals: Record<string, number>;
  startedAt: Date;
}

/** The checkpoint of `name`, or null when the last run finished (or none ran). */
export async function readCheckpoint(dataSource: DataSource, name: string): Promise<Checkpoint | null> {
  const [row]: Array<{ position: string; totals: Record<string, number>; started_at: Date }> =
    await dataSource.query('SELECT position, totals, started_at FROM operator_checkpoints WHERE name = $1', [
      name,
    ]);
  return row ? { position: row.position, totals: row.totals, startedAt: row.started_at } : null;
}

export async function saveCheckpoint(
  dataSource: DataSource,
  name: string,
  position: string,
  totals: Record<string, number>,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO operator_checkpoints (name, position, totals) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, totals = EXCLUDED.totals, updated_at = now()`,
    [name, position, JSON.stringify(totals)],
  );
}

export async function clearCheckpoint(dataSource: DataSource, name: string): Promise<void> {
  await dataSource.query('DELETE FROM operator_checkpoints WHERE name = $1', [name]);
}
