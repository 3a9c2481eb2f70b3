import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ServiceName } from './types';

/** Identity audit record: key creation and revocation, member sync changes, authentication failures. */
@Entity({ name: 'identity_audit' })
export class IdentityAudit {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  service!: ServiceName;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'bigint', name: 'member_id', nullable: true })
  memberId!: string | null;

  @Column({ type: 'uuid', name: 'key_id', nullable: true })
  keyId!: string | null;

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
