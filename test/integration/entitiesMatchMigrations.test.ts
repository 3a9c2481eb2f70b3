import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { connectAndMigrate } from '../../entities/dataSource';
import { createDatabase, dropDatabase } from '../../infra/postgres';
import { readTestEnv } from '../helpers/testEnv';

// The entities are the schema's one description: a freshly migrated database must be exactly what they say.
const env = readTestEnv();
const database = `${env.templateDatabase}_entities_${randomBytes(4).toString('hex')}`;
let dataSource: DataSource;

beforeAll(async () => {
  const url = await createDatabase(env.pgAdminUrl, database);
  dataSource = await connectAndMigrate(url, 1);
});

afterAll(async () => {
  await dataSource?.destroy();
  await dropDatabase(env.pgAdminUrl, database);
});

test("TypeORM's schema builder finds nothing to change after the migrations", async () => {
  const sqlInMemory = await dataSource.driver.createSchemaBuilder().log();
  expect(sqlInMemory.upQueries.map((query) => query.query)).toEqual([]);
});

test('every table the migrations create has an entity', async () => {
  const rows: { table_name: string }[] = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'
     ORDER BY table_name`,
  );
  const described = dataSource.entityMetadatas.map((metadata) => metadata.tableName).sort();
  expect(rows.map((row) => row.table_name)).toEqual(described);
});

test('every column is named after its property in snake_case, so RowOf<Entity> types raw rows truly', () => {
  const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  const misnamed = dataSource.entityMetadatas.flatMap((metadata) =>
    metadata.columns
      .filter((column) => column.databaseName !== snakeCase(column.propertyName))
      .map((column) => `${metadata.tableName}.${column.databaseName} (property ${column.propertyName})`),
  );
  expect(misnamed).toEqual([]);
});
