import type { EntityManager } from 'typeorm';

/** What runs a statement: the data source, or a transaction's entity manager. */
export type Queryable = Pick<EntityManager, 'query'>;

/** What runs statements and transactions: the data source, or a transaction (whose own are savepoints). */
export type Transactional = Pick<EntityManager, 'query' | 'transaction'>;
