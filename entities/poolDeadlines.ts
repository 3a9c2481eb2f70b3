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
const CLIENT_DEADLINE_SLACK_MS = 1000;

/** How often the statements in flight are checked against their client deadline. */
const SWEEP_EVERY_MS = 250;

interface InFlight {
  client: DeadlineClient;
  startedAt: number;
  deadlineMs: number;
  expired: boolean;
}

/** Every DeadlineClient's statements awaiting an answer, in this process; swept while any is. */
const inFlight = new Set<InFlight>();
let sweeper: NodeJS.Timeout | undefined;

function sweepInFlight() {
  const now = performance.now();
  for (const statement of inFlight) {
    if (statement.expired || now - statement.startedAt < statement.deadlineMs) continue;
    statement.expired = true;
    // The pending answer fails with the closed connection; the statement's callback reports it as the deadline.
    statement.client.abandon();
  }
  if (inFlight.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

type QueryCallback = (error: Error | undefined, result?: unknown) => void;
type PgQuery = (...args: unknown[]) => unknown;
/** What this client reads of pg's first argument: a query text or config, or a submittable. */
type PgQueryConfig = { submit?: unknown; query_timeout?: number };

/**
 * A query past the client deadline leaves its connection waiting for an answer that may never come (a partition,
 * a half-open connection): the pool would hand it out again with every later query queued behind the lost one.
 * This client closes its socket then, so the statement fails with 'Query read timeout' and the pool drops it.
 *
 * The deadline is one sweep of the process's statements in flight, not pg's timer per statement nor a promise
 * chained to each: either keeps what a request holds while it waits on PostgreSQL alive past a young-generation
 * collection, which then promotes it (docs/benchmark.md, "v1 cursor page"). So each statement goes to pg in its
 * callback form with pg's timer off; `connectionParameters.query_timeout` still names the deadline
 * (withStatementDeadline lengthens it).
 */
class DeadlineClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, values, callback] = args as [PgQueryConfig | null | undefined, unknown, unknown];
    // A submittable (cursor, COPY stream) or a statement with a deadline of its own keeps pg's timer.
    if (config == null || typeof config.submit === 'function' || config.query_timeout) {
      return (super.query as PgQuery)(...args) as never;
    }
    const deadlineMs = this.connectionParametersOf().query_timeout || 0;
    const done = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
    const queryValues = typeof values === 'function' ? undefined : values;
    if (typeof done === 'function') {
      this.sendWithDeadline(config, queryValues, deadlineMs, done);
      return undefined as never;
    }
    return new Promise((resolve, reject) =>
      this.sendWithDeadline(config, queryValues, deadlineMs, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    ) as never;
  }

  /**
   * Closes the socket as an end this client asked for: marked ending first (the flag pg-pool reads too), the pool
   * drops it on release instead of keeping it, and the closed socket is no unexpected error to report.
   */
  abandon(): void {
    const internals = this as unknown as { _ending: boolean; connection: { stream: { destroy(): void } } };
    internals._ending = true;
    internals.connection.stream.destroy();
  }

  private sendWithDeadline(config: unknown, values: unknown, deadlineMs: number, done: QueryCallback) {
    if (!deadlineMs) {
      (super.query as PgQuery)(config, values, done);
      return;
    }
    const statement: InFlight = { client: this, startedAt: performance.now(), deadlineMs, expired: false };
    inFlight.add(statement);
    sweeper ??= setInterval(sweepInFlight, SWEEP_EVERY_MS).unref();
    // pg reads its timer's deadline when the call is made.
    const parameters = this.connectionParametersOf();
    const deadline = parameters.query_timeout;
    parameters.query_timeout = 0;
    try {
      (super.query as PgQuery)(config, values, (error: Error | undefined, result: unknown) => {
        inFlight.delete(statement);
        if (statement.expired) done(new Error('Query read timeout', { cause: error }));
        else done(error, result);
      });
    } finally {
      parameters.query_timeout = deadline;
    }
  }

  /** pg's per-connection settings, where it reads a statement's client deadline when none is given. */
  connectionParametersOf() {
    return (this as unknown as { connectionParameters: { query_timeout?: number } }).connectionParameters;
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
  const parameters = client.connectionParametersOf();
  const poolDeadline = parameters.query_timeout;
  parameters.query_timeout = statementMs + CLIENT_DEADLINE_SLACK_MS;
  try {
    return await work();
  } finally {
    parameters.query_timeout = poolDeadline;
  }
}
