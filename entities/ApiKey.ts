import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role, Scope, ServiceName } from './types';

/** An API key. Only a SHA-256 of its secret is stored; the token is shown once at creation. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  service!: ServiceName;

  @Column({ type: 'bigint', name: 'member_id' })
  memberId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: Role;

  @Column({ type: 'text', array: true })
  scopes!: Scope[];

  @Column({ type: 'bytea', name: 'secret_hash', select: false })
  secretHash!: Buffer;

  @Column({ type: 'uuid', name: 'created_by_key_id', nullable: true })
  createdByKeyId!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;
}
