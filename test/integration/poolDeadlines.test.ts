import pg from 'pg';
import { DataSource } from 'typeorm';
import { poolDeadlineOptions, withStatementDeadline } from '../../entities/poolDeadlines';
import { readTestEnv } from '../helpers/testEnv';

/*
 * A statement whose answer does not come within the client's deadline (entities/poolDeadlines.ts) fails, and its
 * connection is closed rather than handed out again with the next query queued behind the lost answer. The lost
 * answer is made here by turning PostgreSQL's own statement_timeout off for one session, so only the client's
 * deadline is left; the pool holds one connection, so a stuck one would hold up the next checkout.
 */
let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({
    connectionString: readTestEnv().pgAdminUrl,
    max: 1,
    ...poolDeadlineOptions({ connectMs: 5_000, statementMs: 500 }),
  });
});

afterAll(() => pool.end());

it('fails a statement past the client deadline and gives the next checkout a working connection', async () => {
  // As TypeORM does it: check out, query, release without the error.
  const first = await pool.connect();
  const firstPid = (await first.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  await first.query('SET statement_timeout = 0');
  const started = Date.now();
  await expect(first.query('SELECT pg_sleep(20)')).rejects.toThrow('Query read timeout');
  expect(Date.now() - started).toBeLessThan(5_000);
  first.release();

  const next = await pool.connect();
  try {
    const { rows } = await next.query<{ pid: number; timeout: string }>(
      "SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout",
    );
    expect(rows[0].pid).not.toBe(firstPid);
    // A new connection carries the server-side deadline again.
    expect(rows[0].timeout).toBe('500ms');
  } finally {
    next.release();
  }
});

it('fails a statement sent in the callback form past the client deadline, as the pool sends its own', async () => {
  const client = await pool.connect();
  await client.query('SET statement_timeout = 0');
  const failure = await new Promise<Error | undefined>((resolve) =>
    client.query('SELECT pg_sleep(20)', [], (error) => resolve(error ?? undefined)),
  );
  client.release();
  expect(failure?.message).toBe('Query read timeout');
  // The pool dropped the closed connection: the next statement runs on a new one.
  await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
});

it('leaves PostgreSQL to cancel a statement it can answer for, before the client gives up', async () => {
  await expect(pool.query('SELECT pg_sleep(20)')).rejects.toMatchObject({ code: '57014' });
});

describe('withStatementDeadline', () => {
  // One connection, so the transaction after the longer deadline runs on the same one.
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'postgres',
      url: readTestEnv().pgAdminUrl,
      extra: { max: 1, ...poolDeadlineOptions({ connectMs: 5_000, statementMs: 300 }) },
    });
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  it('lets one transaction run a statement past the pool deadline, and the next has the pool deadline again', async () => {
    const slept = await dataSource.transaction((tx) =>
      withStatementDeadline(tx, 5_000, () => tx.query('SELECT pg_sleep(1.5), pg_backend_pid() AS pid')),
    );
    const [after] = await dataSource.transaction((tx) =>
      tx.query("SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout"),
    );
    expect(after).toEqual({ pid: slept[0].pid, timeout: '300ms' });
    await expect(dataSource.transaction((tx) => tx.query('SELECT pg_sleep(1.5)'))).rejects.toMatchObject({
      code: '57014',
    });
  });

  it('fails a statement through TypeORM past the client deadline, and the next runs on a new connection', async () => {
    const [{ pid }] = await dataSource.query('SELECT pg_backend_pid() AS pid');
    await dataSource.query('SET statement_timeout = 0');
    await expect(dataSource.query('SELECT pg_sleep(20)')).rejects.toThrow('Query read timeout');
    const [next] = await dataSource.query(
      "SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout",
    );
    expect(next).toEqual({ pid: expect.any(Number), timeout: '300ms' });
    expect(next.pid).not.toBe(pid);
  });

  it('still cancels a statement past the longer deadline', async () => {
    await expect(
      dataSource.transaction((tx) => withStatementDeadline(tx, 500, () => tx.query('SELECT pg_sleep(5)'))),
    ).rejects.toMatchObject({ code: '57014' });
  });
});
