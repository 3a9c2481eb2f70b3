import type { EntityManager } from 'typeorm';

/** What runs a statement: the data source, or a transaction's entity manager. */
export type Queryable = Pick<EntityManager, 'query'>;
