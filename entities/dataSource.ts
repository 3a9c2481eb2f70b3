import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ApiKey } from './ApiKey';
import { IdempotencyRecord } from './IdempotencyRecord';
import { IdentityAudit } from './IdentityAudit';
import { KeyEvent } from './KeyEvent';
import { MathArtifact } from './MathArtifact';
import { MathClient } from './MathClient';
import { MathReport } from './MathReport';
import { MathRun } from './MathRun';
import { MathTask } from './MathTask';
import { MathTaskEvent } from './MathTaskEvent';
import { MathTopic } from './MathTopic';
import { Member } from './Member';
import { Foundation1732200000000 } from './migrations/1732200000000-Foundation';

export const entities = [
  Member,
  ApiKey,
  IdempotencyRecord,
  KeyEvent,
  IdentityAudit,
  MathRun,
  MathTopic,
  MathArtifact,
  MathReport,
  MathClient,
  MathTask,
  MathTaskEvent,
];

export const migrations = [Foundation1732200000000];

/** Builds (does not connect) the project's data source. The schema comes from migrations only. */
export function createDataSource(url: string, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    extra: { max: poolSize, application_name: 'referee' },
    logging: ['error'],
  });
}

/** Connects and brings the schema up to date. */
export async function connectAndMigrate(url: string, poolSize = 10): Promise<DataSource> {
  const dataSource = createDataSource(url, poolSize);
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
