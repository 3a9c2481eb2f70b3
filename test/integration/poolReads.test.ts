import { DataSource, QueryFailedError } from 'typeorm';
import { poolDeadlineOptions } from '../../entities/poolDeadlines';
import { poolReads } from '../../entities/poolReads';
import { readTestEnv } from '../helpers/testEnv';

/*
 * The hot reads' own client deadline (entities/poolReads.ts) against a real PostgreSQL: a statement whose answer
 * does not come in time fails as the pool's deadline fails it, and its connection is not handed out again. The
 * lost answer is made by turning PostgreSQL's statement_timeout off on the pool's one connection.
 */
let dataSource: DataSource;
let reads: ReturnType<typeof poolReads>;

beforeAll(async () => {
  dataSource = new DataSource({
    type: 'postgres',
    url: readTestEnv().pgAdminUrl,
    extra: { max: 1, ...poolDeadlineOptions({ connectMs: 5_000, statementMs: 500 }) },
  });
  await dataSource.initialize();
  reads = poolReads(dataSource, 500);
});

afterAll(async () => {
  reads.close();
  await dataSource.destroy();
});

it('answers a read with its rows', async () => {
  await expect(reads.query('SELECT $1::int AS n', [7])).resolves.toEqual([{ n: 7 }]);
});

it('fails a read past the client deadline and gives the next read a working connection', async () => {
  const [{ pid }] = await reads.query('SELECT pg_backend_pid() AS pid');
  await reads.query('SET statement_timeout = 0');
  const started = Date.now();
  await expect(reads.query('SELECT pg_sleep(20)')).rejects.toThrow('Query read timeout');
  expect(Date.now() - started).toBeLessThan(5_000);

  const [next] = await reads.query(
    "SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout",
  );
  expect(next.pid).not.toBe(pid);
  expect(next.timeout).toBe('500ms');
});

it('leaves PostgreSQL to cancel a statement it can answer for', async () => {
  await expect(reads.query('SELECT pg_sleep(20)')).rejects.toMatchObject({
    driverError: expect.objectContaining({ code: '57014' }),
  });
});

it("reports PostgreSQL's refusal of the data as TypeORM does", async () => {
  const refusal = await reads.query("SELECT 'x'::int").catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(QueryFailedError);
  expect((refusal as QueryFailedError).driverError).toMatchObject({ code: '22P02' });
});
