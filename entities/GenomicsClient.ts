import { Column, Entity, Unique } from 'typeorm';
import { CreatedAtColumn, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';

/** A client of the genomics workspace; imported, keyed by the source's id. */
@Unique('genomics_clients_source_id_key', ['sourceId'])
@Entity({ name: 'genomics_clients' })
export class GenomicsClient {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text', name: 'source_id' }) sourceId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'boolean', default: () => 'true' }) enabled!: boolean;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
