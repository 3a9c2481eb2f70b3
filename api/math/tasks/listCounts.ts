import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import type { ReviewStatus } from '../shared/reviewStatus';
import { visibilityScope } from '../visibility';
import { countTasks, readTaskChangeStamp, type TaskFilters } from './queries';

/**
 * The change stamp of `math_tasks` (migration ListChangeStamps) and whether every change drawn so far is
 * committed: `quiet` is false while a writer that drew a stamp is still in its transaction.
 */
interface Entry {
  stamp: string;
  storedAt: number;
  counts: Promise<ReviewStatus>;
}

/** Filter fields in a fixed order, so one query shape has one key whatever the order of its parameters. */
const FILTER_FIELDS = [
  'question_id',
  'run_id',
  'reviewer_id',
  'client_id',
  'review_state',
  'decision',
  'q',
  'surface',
] as const satisfies ReadonlyArray<keyof TaskFilters>;

/** One cache entry per (visibility, filters): a Reviewer's counts cover only their own tasks. */
export function countShapeKey(principal: Principal, filters: TaskFilters): string {
  const scope = visibilityScope(principal) === 'assigned' ? `assigned:${principal.member.id}` : 'all';
  return JSON.stringify([scope, ...FILTER_FIELDS.map((field) => filters[field] ?? null)]);
}

/**
 * `total` and the review-status counts of task lists, computed once per list shape and reused by every
 * page of it (and every client asking for it) until `math_tasks` changes. Exact: an entry is used only
 * while the change stamp it was computed under is still the current one, and stored only when no writer
 * was in flight as the stamp was read. The age limit only bounds what a write bypassing the trigger
 * (`session_replication_role = replica`) could leave behind.
 */
export class TaskCountCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly maxEntries = 500,
    private readonly maxAgeMs = 60_000,
  ) {}

  async counts(principal: Principal, filters: TaskFilters): Promise<ReviewStatus> {
    const key = countShapeKey(principal, filters);
    const { stamp, quiet } = await readTaskChangeStamp(this.dataSource);
    const cached = this.entries.get(key);
    if (cached && cached.stamp === stamp && Date.now() - cached.storedAt < this.maxAgeMs) {
      // Most recently used last, so eviction takes the least recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.counts;
    }
    const counts = countTasks(this.dataSource, principal, filters);
    if (!quiet) return counts;
    const entry: Entry = { stamp, storedAt: Date.now(), counts };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    counts.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return counts;
  }
}

const caches = new WeakMap<DataSource, TaskCountCache>();

/** The count cache of a database (one per data source, so test stacks on other databases never share). */
export function taskCountCache(dataSource: DataSource): TaskCountCache {
  let cache = caches.get(dataSource);
  if (!cache) {
    cache = new TaskCountCache(dataSource);
    caches.set(dataSource, cache);
  }
  return cache;
}
