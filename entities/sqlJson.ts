/**
 * A timestamptz expression as the API writes times in JSON (`Date.toISOString()`: UTC, milliseconds, `Z`), for
 * rows presented by SQL itself (export snapshots). PostgreSQL's `MS` truncates as the driver's parsing does.
 */
export const isoTimestampSql = (expression: string): string =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
