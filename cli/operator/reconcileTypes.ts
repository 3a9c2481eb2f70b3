import type { QueryDefinition } from '@temporalio/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { ServiceName } from '../../entities/types';

/** One field where the projection and the workflow disagree. */
export interface Difference {
  field: string;
  projection: unknown;
  workflow: unknown;
}

/**
 * What `reconcile` needs to know of one service's tasks: how to page through the projection, which workflow
 * and query own each row, how to compare, and how to rewrite a row from the workflow's state.
 */
export interface ServiceReconciler<Row, State> {
  service: ServiceName;
  workflowType: string;
  workflowId(row: Row): string;
  /** The task id or topic uid operators know the task by. */
  subjectId(row: Row): string;
  /** Keyset position of the row (the table's primary key, as text). */
  cursor(row: Row): string;
  version(row: Row): number;
  stateVersion(state: State): number;
  stateQuery: QueryDefinition<State>;
  count(dataSource: DataSource): Promise<number>;
  page(dataSource: DataSource, after: string | null, limit: number): Promise<Row[]>;
  /** The row as it is now, or null when it was deleted meanwhile. */
  reread(dataSource: DataSource, row: Row): Promise<Row | null>;
  /** Differences from the workflow's state; with no workflow, from the task's initial state. */
  compare(row: Row, state: State | null): Difference[];
  /**
   * Rewrites the projection from the workflow's state, guarded by the projection version seen in `row`
   * (so a transition committed meanwhile is never overwritten). False when the guard did not match.
   */
  repair(tx: EntityManager, row: Row, state: State): Promise<boolean>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Field-by-field differences of two flat records (nested values compared as JSON), over `expected`'s fields. */
export function differences<T extends object>(projection: T, expected: T, prefix = ''): Difference[] {
  const found: Difference[] = [];
  for (const field of Object.keys(expected) as Array<keyof T & string>) {
    if (!same(projection[field], expected[field]))
      found.push({
        field: `${prefix}${field}`,
        projection: projection[field] ?? null,
        workflow: expected[field] ?? null,
      });
  }
  return found;
}

/** A difference the projection cannot be rewritten to fix (a record the workflow names is gone). */
export class UnrepairableError extends Error {}
