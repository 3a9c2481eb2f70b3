import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn } from './columns';

/** A SCIM Group; one named `referee-<service>-<role>` gives its members that role (docs/provisioning.md). */
// USING btree (lower(display_name))
@Index('scim_groups_display_name_key', { synchronize: false })
@Entity({ name: 'scim_groups' })
export class ScimGroup {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text', name: 'display_name' }) displayName!: string;
  @Column({ type: 'text', name: 'external_id', nullable: true }) externalId!: string | null;
  @Column({ type: 'integer', default: 1 }) version!: number;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
