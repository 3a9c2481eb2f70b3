import Joi from 'joi';

/**
 * What both services' dashboard operations share: how long assigned work has been open (ageing buckets) and how
 * long an assignment took to reach its verdict (turnaround), each as SQL over a column of the caller's choosing
 * and the JSON shape that carries it. Bucket bounds are days since the assignment, lower bound included.
 */
export const AGEING_BUCKETS = [
  { bucket: 'under_1d', fromDays: 0, toDays: 1 },
  { bucket: '1d_to_3d', fromDays: 1, toDays: 3 },
  { bucket: '3d_to_7d', fromDays: 3, toDays: 7 },
  { bucket: '7d_to_14d', fromDays: 7, toDays: 14 },
  { bucket: '14d_to_30d', fromDays: 14, toDays: 30 },
  { bucket: 'over_30d', fromDays: 30, toDays: null },
] as const;

export type AgeingBucket = (typeof AGEING_BUCKETS)[number]['bucket'];

/** Count columns `ag_<bucket>` of the rows whose `since` (a timestamptz expression) falls in each bucket. */
export function ageingColumns(since: string): string {
  return AGEING_BUCKETS.map(({ bucket, fromDays, toDays }) => {
    const lower = `${since} <= now() - interval '${fromDays} days'`;
    const upper = toDays === null ? '' : ` AND ${since} > now() - interval '${toDays} days'`;
    return `count(*) FILTER (WHERE ${lower}${upper})::int AS ag_${bucket}`;
  }).join(',\n  ');
}

/** A bucket of open work; its name says its bounds (`1d_to_3d`: assigned 1 to 3 days ago). */
export interface AgeingBucketCount {
  bucket: AgeingBucket;
  open: number;
}

export const presentAgeing = (row: Record<string, unknown>): AgeingBucketCount[] =>
  AGEING_BUCKETS.map(({ bucket }) => ({ bucket, open: Number(row[`ag_${bucket}`] ?? 0) }));

/**
 * Median and 90th percentile (continuous, in whole seconds) of `seconds` over the group, and how many there were:
 * columns `verdicts`, `median_seconds`, `p90_seconds` (null with no verdict).
 */
export function turnaroundColumns(seconds: string): string {
  return [
    `count(*)::int AS verdicts`,
    `round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}))::int AS median_seconds`,
    `round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds}))::int AS p90_seconds`,
  ].join(', ');
}

const count = () => Joi.number().integer().min(0).required();
const seconds = () => Joi.number().integer().min(0).allow(null).required();

export const ageingSchema = Joi.array()
  .items(
    Joi.object({
      bucket: Joi.string()
        .valid(...AGEING_BUCKETS.map((b) => b.bucket))
        .required(),
      open: count(),
    }),
  )
  .length(AGEING_BUCKETS.length);

/** Turnaround of one reviewer: verdicts in the window, median and p90 from assignment to verdict. */
export const turnaroundFields = {
  verdicts: count(),
  median_seconds: seconds(),
  p90_seconds: seconds(),
};

/** The UTC days of a window of `days` days ending today, for the trend queries (`$n` is the day count). */
export const windowStartSql = (dayCountParam: string) =>
  `(((now() AT TIME ZONE 'UTC')::date - (${dayCountParam}::int - 1))::timestamp AT TIME ZONE 'UTC')`;
