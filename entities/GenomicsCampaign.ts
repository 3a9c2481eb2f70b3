import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn } from './columns';

/** A genomics campaign (a review or delivery round); imported, referenced by id from topics, notes, revisions. */
@Check('genomics_campaigns_id_check', '((char_length(id) >= 1) AND (char_length(id) <= 256))')
@Entity({ name: 'genomics_campaigns' })
export class GenomicsCampaign {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', default: () => "'OPEN'" }) status!: string;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
