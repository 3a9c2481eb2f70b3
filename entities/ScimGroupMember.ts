import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ScimGroup } from './ScimGroup';
import { ScimUser } from './ScimUser';

/** A SCIM User in a SCIM Group; deleting either removes it. */
// USING btree (user_id)
@Index('scim_group_members_user', { synchronize: false })
@Entity({ name: 'scim_group_members' })
export class ScimGroupMember {
  @PrimaryColumn({ type: 'uuid', name: 'group_id' })
  groupId!: string;

  @PrimaryColumn({ type: 'uuid', name: 'user_id' })
  userId!: string;

  /** Foreign key scim_group_members_group_id_fkey. */
  @ManyToOne(() => ScimGroup, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'group_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scim_group_members_group_id_fkey',
  })
  group?: Relation<ScimGroup>;

  /** Foreign key scim_group_members_user_id_fkey. */
  @ManyToOne(() => ScimUser, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'user_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scim_group_members_user_id_fkey',
  })
  user?: Relation<ScimUser>;
}
