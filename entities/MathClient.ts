import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A client that tasks are linked to; `updated_at` is its edit-conflict token. */
@Entity({ name: 'math_clients' })
export class MathClient {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
