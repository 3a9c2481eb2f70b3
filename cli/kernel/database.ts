import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import { appliedMigrations, migrationsTablePresent } from './databaseQueries';
import { OpsError } from './output';

/** Node and PostgreSQL error codes worth a sentence of their own when connecting. */
const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  '3D000': 'the database does not exist',
  '28P01': 'the password was refused',
  '28000': 'the user is not allowed to connect',
  '57P03': 'the server is starting up or shutting down',
};

export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/**
 * Connects to the database of `config`. Only `migrate` passes `migrate: true`; every other command refuses a
 * schema behind the code (pending migrations in TypeORM's `migrations` table), naming `ops migrate`.
 */
export async function openDatabase(config: Config, options: { migrate: boolean }): Promise<DataSource> {
  const { createDataSource, migrations } = await import('../../entities/dataSource');
  const dataSource = createDataSource(config.databaseUrl, 2);
  try {
    await dataSource.initialize();
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const why = CONNECT_FAILURES[code] ?? (error as Error).message;
    throw new OpsError(
      'database_unreachable',
      `cannot use PostgreSQL at ${describeDatabase(config.databaseUrl)}: ${why}${code ? ` (${code})` : ''}`,
      { dependency: 'postgresql', address: describeDatabase(config.databaseUrl), errorCode: code || null },
    );
  }
  try {
    if (options.migrate) {
      await dataSource.runMigrations({ transaction: 'each' });
    } else {
      const pending = await pendingMigrations(
        dataSource,
        migrations.map((m) => m.name),
      );
      if (pending.length > 0) {
        throw new OpsError(
          'schema_behind',
          `the schema of ${describeDatabase(config.databaseUrl)} is behind this code ` +
            `(${pending.length} pending migration${pending.length === 1 ? '' : 's'}, first ${pending[0]}); ` +
            'run "referee migrate" (npm run ops -- migrate) first',
          { pending },
        );
      }
    }
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/** Migrations the code knows that TypeORM's `migrations` table does not list (read only: creates nothing). */
async function pendingMigrations(dataSource: DataSource, known: string[]): Promise<string[]> {
  if (!(await migrationsTablePresent(dataSource))) return known; // never migrated
  const done = new Set(await appliedMigrations(dataSource));
  return known.filter((name) => !done.has(name));
}
