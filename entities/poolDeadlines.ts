import pg from 'pg';
import type { EntityManager } from 'typeorm';

/** How long PostgreSQL may keep a caller waiting (config.ts, `databaseDeadlines`). */
export interface PoolDeadlines {
  /** To take a connection from the pool, or open one. */
  connectMs: number;
  /** One statement: PostgreSQL's `statement_timeout`; the client gives up a second later. */
  statementMs: number;
}

/** The client's deadline past PostgreSQL's own, so that a server that can answer cancels the statement first. */
export const CLIENT_DEADLINE_SLACK_MS = 1000;

/**
 * Closes a client's socket as an end the client asked for: marked ending first (the flag pg-pool reads too), the
 * pool drops it on release instead of keeping it, and the closed socket is no unexpected error to report.
 */
export function abandonClient(client: pg.ClientBase): void {
  const internals = client as unknown as { _ending: boolean; connection: { stream: { destroy(): void } } };
  internals._ending = true;
  internals.connection.stream.destroy();
}

/**
 * A query past the client deadline leaves its connection waiting for an answer that may never come (a partition,
 * a half-open connection): the pool would hand it out again with every later query queued behind the lost one.
 * This client closes its socket then, so the driver reports the connection's error and the pool drops it.
 */
class DeadlineClient extends pg.Client {
  // pg's overloads (callback, promise, submittable) are passed through as they are.
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if ((error as Error | undefined)?.message === 'Query read timeout') abandonClient(this);
      });
    }
    return result as never;
  }
}

/**
 * node-postgres pool options that bound every wait on PostgreSQL: the pool's wait for a connection, the
 * statement deadline on both sides, and TCP keep-alive so a dead idle connection is found.
 */
export function poolDeadlineOptions(deadlines: PoolDeadlines) {
  return {
    Client: DeadlineClient,
    connectionTimeoutMillis: deadlines.connectMs,
    statement_timeout: deadlines.statementMs,
    query_timeout: deadlines.statementMs + CLIENT_DEADLINE_SLACK_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * Runs `work` inside the transaction `tx` under a longer statement deadline than the pool's, on both sides: for the
 * one statement whose work grows with the data and must stay in the request's transaction (an export's snapshot,
 * docs/exports.md). PostgreSQL's is transaction-local; the client's is restored before the connection is released.
 */
export async function withStatementDeadline<T>(
  tx: EntityManager,
  statementMs: number,
  work: () => Promise<T>,
): Promise<T> {
  // The Postgres driver's query runner holds the transaction's pg client (not on TypeORM's QueryRunner type).
  const client = (tx.queryRunner as { databaseConnection?: unknown } | undefined)?.databaseConnection;
  await tx.query(`SELECT set_config('statement_timeout', $1, true)`, [`${statementMs}ms`]);
  // A pool made without poolDeadlineOptions has no client deadline to lengthen.
  if (!(client instanceof DeadlineClient)) return work();
  // pg reads each query's client deadline from here when the query itself names none.
  const parameters = (client as unknown as { connectionParameters: { query_timeout?: number } })
    .connectionParameters;
  const poolDeadline = parameters.query_timeout;
  parameters.query_timeout = statementMs + CLIENT_DEADLINE_SLACK_MS;
  try {
    return await work();
  } finally {
    parameters.query_timeout = poolDeadline;
  }
}

/**
 * Sends one statement (`send` calls `client.query` once) without pg's own timer for the client deadline: for a
 * caller that keeps the deadline itself (entities/poolReads.ts). pg reads the deadline when the call is made.
 */
export function withoutClientTimer<T>(client: pg.ClientBase, send: () => T): T {
  const parameters = (client as unknown as { connectionParameters: { query_timeout?: number } })
    .connectionParameters;
  const deadline = parameters.query_timeout;
  parameters.query_timeout = 0;
  try {
    return send();
  } finally {
    parameters.query_timeout = deadline;
  }
}
