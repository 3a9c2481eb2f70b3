import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAtColumn } from './columns';

/** A provisioning token of the organisation's identity service: valid for `/scim/v2` only, revocable. */
@Entity({ name: 'scim_tokens' })
export class ScimToken {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text' }) name!: string;

  /** SHA-256 of the token's secret; the secret itself is shown once and never stored. */
  @Column({ type: 'bytea', name: 'secret_hash', select: false }) secretHash!: Buffer;
  @Column({ type: 'text', name: 'created_by' }) createdBy!: string;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
