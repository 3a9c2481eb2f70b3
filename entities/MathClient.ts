import { Column, Entity, Index } from 'typeorm';
import { IdentityPrimaryColumn } from './columns';

/** A client that tasks are linked to; `updated_at` is its edit-conflict token. */
// UNIQUE USING btree (lower(name))
@Index('math_clients_name_ci', { synchronize: false })
// USING gin (name gin_trgm_ops)
@Index('math_clients_name_trgm', { synchronize: false })
@Entity({ name: 'math_clients' })
export class MathClient {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', default: () => "''" }) description!: string;
  @Column({ type: 'boolean', default: () => 'true' }) enabled!: boolean;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => "date_trunc('milliseconds', now())" })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at', default: () => "date_trunc('milliseconds', now())" })
  updatedAt!: Date;
}
