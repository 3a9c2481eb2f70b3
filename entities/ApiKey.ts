import { Check, Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey } from './columns';
import { Member } from './Member';
import type { Role, Scope, ServiceName } from './types';

/** An API key. Only a SHA-256 of its secret is stored; the token is shown once at creation. */
// USING btree (member_id, created_at DESC)
@Index('api_keys_member_created', { synchronize: false })
// USING btree (service, created_at DESC, id)
@Index('api_keys_service_created', { synchronize: false })
@Check('api_keys_role_check', "(role = ANY (ARRAY['REVIEWER'::text, 'OWNER'::text, 'ADMIN'::text]))")
@Check('api_keys_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text' }) service!: ServiceName;
  @Column({ type: 'bigint', name: 'member_id' }) memberId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) role!: Role;
  @Column({ type: 'text', array: true }) scopes!: Scope[];
  @Column({ type: 'bytea', name: 'secret_hash', select: false }) secretHash!: Buffer;
  @Column({ type: 'uuid', name: 'created_by_key_id', nullable: true }) createdByKeyId!: string | null;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;
  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;

  @ManyToOne(() => ApiKey)
  @ForeignKey('api_keys_created_by_key_id_fkey', 'created_by_key_id')
  createdByKey?: Relation<ApiKey>;

  @ManyToOne(() => Member)
  @ForeignKey('api_keys_member_id_fkey', 'member_id')
  member?: Relation<Member>;
}
