import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A genomics campaign (a review or delivery round); imported, referenced by id from topics, notes, revisions. */
@Entity({ name: 'genomics_campaigns' })
export class GenomicsCampaign {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
