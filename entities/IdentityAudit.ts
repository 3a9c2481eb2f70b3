import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { Member } from './Member';
import type { ServiceName } from './types';

/** Identity audit record: key creation and revocation, member sync changes, authentication failures. */
// USING btree (service, id DESC)
@Index('identity_audit_service_id', { synchronize: false })
// USING btree (created_at): the retention purge's (api/kernel/housekeeping.ts)
@Index('identity_audit_created_at', { synchronize: false })
@Check('identity_audit_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
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

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key identity_audit_member_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'member_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'identity_audit_member_id_fkey',
  })
  member?: Relation<Member>;
}
