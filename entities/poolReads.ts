import type pg from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import { abandonClient, CLIENT_DEADLINE_SLACK_MS, withoutClientTimer } from './poolDeadlines';
import type { Queryable } from './queryable';

/** How often the statements in flight are checked against their deadline. */
const SWEEP_EVERY_MS = 250;

interface InFlight {
  client: pg.PoolClient;
  startedAt: number;
  expired: boolean;
}

/**
 * Single statements outside a transaction, straight on the data source's pool: the hot list reads. pg's timer per
 * statement (`query_timeout`) and the promise DeadlineClient chains to each statement each keep what a request
 * holds while it waits on PostgreSQL alive past a young-generation collection, which then promotes it
 * (docs/benchmark.md, "v1 cursor page"). So here the client deadline of entities/poolDeadlines.ts is one sweep of
 * the statements in flight: past `statementMs` plus the slack, a statement fails with 'Query read timeout' and its
 * connection is closed, as the pool's own deadline does. PostgreSQL's errors come as TypeORM's QueryFailedError,
 * as from `dataSource.query`.
 */
export function poolReads(dataSource: DataSource, statementMs: number): Queryable & { close(): void } {
  const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  const deadlineMs = statementMs + CLIENT_DEADLINE_SLACK_MS;
  const inFlight = new Set<InFlight>();
  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const statement of inFlight) {
      if (statement.expired || now - statement.startedAt < deadlineMs) continue;
      statement.expired = true;
      // The pending answer fails with the closed connection; query() reports it as the deadline.
      abandonClient(statement.client);
    }
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  // pg's callback form, which DeadlineClient chains nothing to.
  const query = async (sql: string, parameters?: unknown[]) => {
    const client = await pool.connect();
    const statement: InFlight = { client, startedAt: performance.now(), expired: false };
    inFlight.add(statement);
    // A connection that failed or was closed is dropped from the pool, not handed out again.
    let dropConnection = false;
    try {
      const result = await new Promise<pg.QueryResult>((resolve, reject) =>
        withoutClientTimer(client, () =>
          client.query(sql, parameters ?? [], (error: Error | undefined, answer: pg.QueryResult) =>
            error ? reject(error) : resolve(answer),
          ),
        ),
      );
      return result.rows;
    } catch (error) {
      dropConnection = statement.expired || isConnectionError(error);
      if (statement.expired) throw new Error('Query read timeout', { cause: error });
      throw isConnectionError(error) ? error : new QueryFailedError(sql, parameters, error as Error);
    } finally {
      inFlight.delete(statement);
      client.release(dropConnection);
    }
  };
  return { query, close: () => clearInterval(sweeper) } as unknown as Queryable & { close(): void };
}

/** node-postgres's own connection failures carry no SQLSTATE. */
const isConnectionError = (error: unknown) => (error as { code?: unknown }).code === undefined;
