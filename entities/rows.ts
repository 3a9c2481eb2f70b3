/**
 * Row types of hand-written SQL, derived from the entities so a renamed or retyped column breaks the build.
 * Raw `query()` results use the column names (snake_case) and TypeORM's column value types (bigint as a
 * string); `RowOf<MathTask>` is exactly that view of an entity, without its relation properties.
 */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? Head extends Lowercase<Head>
    ? `${Head}${SnakeCase<Tail>}`
    : `_${Lowercase<Head>}${SnakeCase<Tail>}`
  : S;

/** Relation properties are optional (`?:`); columns are definite (`!:`). */
type ColumnKeys<E> = { [K in keyof E]-?: undefined extends E[K] ? never : K }[keyof E];

export type RowOf<E> = { [K in ColumnKeys<E> & string as SnakeCase<K>]: E[K] };

/** The listed columns of an entity's row. */
export type RowPick<E, K extends keyof RowOf<E>> = Pick<RowOf<E>, K>;
