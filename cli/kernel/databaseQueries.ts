import type { DataSource } from 'typeorm';

/* What the CLI reads of TypeORM's `migrations` table before it runs a command (read only: it creates nothing). */

export async function migrationsTablePresent(dataSource: DataSource): Promise<boolean> {
  const [{ present }]: Array<{ present: boolean }> = await dataSource.query(
    `SELECT to_regclass('migrations') IS NOT NULL AS present`,
  );
  return present;
}

export async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const applied: Array<{ name: string }> = await dataSource.query('SELECT name FROM migrations');
  return applied.map((row) => row.name);
}
