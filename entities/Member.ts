import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Role, ServiceName } from './types';

/** Local projection of a central identity, per service; loaded by `ops members sync`. */
@Entity({ name: 'members' })
export class Member {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  service!: ServiceName;

  @Column({ type: 'text', name: 'identity_id' })
  identityId!: string;

  @Column({ type: 'text' })
  username!: string;

  @Column({ type: 'text', name: 'display_name' })
  displayName!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text' })
  role!: Role;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'boolean', name: 'primary_admin' })
  primaryAdmin!: boolean;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
