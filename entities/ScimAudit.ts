import { Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { ScimToken } from './ScimToken';

/** One SCIM request: which token (null when none was valid), what it asked and how it was answered. */
// USING btree (token_id, id DESC)
@Index('scim_audit_token_id', { synchronize: false })
@Entity({ name: 'scim_audit' })
export class ScimAudit {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'uuid', name: 'token_id', nullable: true }) tokenId!: string | null;
  @Column({ type: 'text' }) method!: string;
  @Column({ type: 'text' }) path!: string;
  @Column({ type: 'integer' }) status!: number;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => ScimToken)
  @ForeignKey('scim_audit_token_id_fkey', 'token_id')
  token?: Relation<ScimToken>;
}
