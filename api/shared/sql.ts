/** A query as the API sends it: SQL text and its positional parameters (so scripts can EXPLAIN the same). */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}
