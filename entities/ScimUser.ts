import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAtColumn, UpdatedAtColumn } from './columns';

/**
 * A SCIM User as the identity service pushed it. `user_name` is the identity: the members of both services with
 * that `identity_id` are its projection (access/provisioning.ts); `resource` holds its other stored attributes.
 */
// USING btree (lower(user_name))
@Index('scim_users_user_name_key', { synchronize: false })
// USING btree (external_id) WHERE (external_id IS NOT NULL)
@Index('scim_users_external_id', { synchronize: false })
@Entity({ name: 'scim_users' })
export class ScimUser {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text', name: 'user_name' }) userName!: string;
  @Column({ type: 'text', name: 'external_id', nullable: true }) externalId!: string | null;
  @Column({ type: 'boolean' }) active!: boolean;
  @Column({ type: 'jsonb' }) resource!: Record<string, unknown>;

  /** Raised by every change: the resource's `meta.version` and ETag. */
  @Column({ type: 'integer', default: 1 }) version!: number;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
