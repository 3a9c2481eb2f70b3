import { Check, Column, Entity, Unique } from 'typeorm';
import { CreatedAtColumn, IdentityPrimaryColumn, UpdatedAtColumn } from './columns';
import type { Role, ServiceName } from './types';

/** Local projection of a central identity, per service; loaded by `ops members sync`. */
@Check('members_role_check', "(role = ANY (ARRAY['REVIEWER'::text, 'OWNER'::text, 'ADMIN'::text]))")
@Check('members_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Unique('members_service_identity_id_key', ['service', 'identityId'])
@Entity({ name: 'members' })
export class Member {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) service!: ServiceName;
  @Column({ type: 'text', name: 'identity_id' }) identityId!: string;
  @Column({ type: 'text' }) username!: string;
  @Column({ type: 'text', name: 'display_name' }) displayName!: string;
  @Column({ type: 'text', nullable: true }) email!: string | null;
  @Column({ type: 'text' }) role!: Role;
  @Column({ type: 'boolean', default: () => 'true' }) enabled!: boolean;
  @Column({ type: 'boolean', name: 'primary_admin', default: () => 'false' }) primaryAdmin!: boolean;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
}
