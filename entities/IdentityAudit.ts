import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
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
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text' }) service!: ServiceName;
  @Column({ type: 'text' }) kind!: string;
  @Column({ type: 'bigint', name: 'member_id', nullable: true }) memberId!: string | null;
  @Column({ type: 'uuid', name: 'key_id', nullable: true }) keyId!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('identity_audit_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
