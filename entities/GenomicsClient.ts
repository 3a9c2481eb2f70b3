import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A client of the genomics workspace; imported, keyed by the source's id. */
@Entity({ name: 'genomics_clients' })
export class GenomicsClient {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text', name: 'source_id' })
  sourceId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
