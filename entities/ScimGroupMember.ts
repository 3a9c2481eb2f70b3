import { Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { ScimGroup } from './ScimGroup';
import { ScimUser } from './ScimUser';

/** A SCIM User in a SCIM Group; deleting either removes it. */
// USING btree (user_id)
@Index('scim_group_members_user', { synchronize: false })
@Entity({ name: 'scim_group_members' })
export class ScimGroupMember {
  @PrimaryColumn({ type: 'uuid', name: 'group_id' }) groupId!: string;
  @PrimaryColumn({ type: 'uuid', name: 'user_id' }) userId!: string;

  @ManyToOne(() => ScimGroup, { onDelete: 'CASCADE' })
  @ForeignKey('scim_group_members_group_id_fkey', 'group_id')
  group?: Relation<ScimGroup>;

  @ManyToOne(() => ScimUser, { onDelete: 'CASCADE' })
  @ForeignKey('scim_group_members_user_id_fkey', 'user_id')
  user?: Relation<ScimUser>;
}
