import Joi from 'joi';
import { bigintString, dateTime } from './schemas';

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

/** A reviewer's figures: turnaround in the window, open work and its oldest assignment. */
export interface ReviewerFiguresRow {
  reviewer_id: string;
  display_name: string;
  enabled: boolean;
  verdicts: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  open: number;
  oldest_assigned_at: Date | null;
}

/**
 * The end of a per-reviewer figures query, after a CTE `turnaround` (`reviewer_id` and the turnaround columns):
 * the CTE `open_work` over `open` (rows of `reviewerColumn` and `assigned_at`), then one ReviewerFiguresRow per
 * member with a verdict or open work.
 */
export function reviewerFiguresTail(open: string, reviewerColumn: string): string {
  return `open_work AS (
       SELECT ${reviewerColumn} AS reviewer_id, count(*)::int AS open, min(assigned_at) AS oldest_assigned_at
         FROM (${open}) o GROUP BY ${reviewerColumn}
     )
     SELECT m.id::text AS reviewer_id, m.display_name, m.enabled,
            COALESCE(ta.verdicts, 0) AS verdicts, ta.median_seconds, ta.p90_seconds,
            COALESCE(ow.open, 0) AS open, ow.oldest_assigned_at
       FROM turnaround ta FULL JOIN open_work ow ON ow.reviewer_id = ta.reviewer_id
       JOIN members m ON m.id = COALESCE(ta.reviewer_id, ow.reviewer_id)
      ORDER BY m.display_name, m.id`;
}

/** The ageing columns and the oldest assignment of `open` (rows with `assigned_at`), in one row. */
export const ageingSql = (open: string) =>
  `SELECT ${ageingColumns('o.assigned_at')}, min(o.assigned_at) AS oldest_assigned_at FROM (${open}) o`;

/** The ageing row as the dashboards present it. */
export const presentAgeingRow = (row: Record<string, unknown>) => ({
  buckets: presentAgeing(row),
  oldest_assigned_at: row.oldest_assigned_at as Date | null,
});

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

/** Per reviewer, as both dashboards answer it: a presented ReviewerFiguresRow. */
export const reviewersSchema = Joi.array()
  .items(
    Joi.object({
      reviewer_id: bigintString().required(),
      display_name: Joi.string().required(),
      enabled: Joi.boolean().required(),
      ...turnaroundFields,
      open: count(),
      oldest_assigned_at: dateTime().allow(null).required(),
    }),
  )
  .required();

/** The ageing of open work: its buckets and its oldest assignment (presentAgeingRow). */
export const ageingAnswerSchema = Joi.object({
  buckets: ageingSchema.required(),
  oldest_assigned_at: dateTime().allow(null).required(),
}).required();
