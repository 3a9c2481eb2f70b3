import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { ScimToken } from './ScimToken';

/** One SCIM request: which token (null when none was valid), what it asked and how it was answered. */
// USING btree (token_id, id DESC)
@Index('scim_audit_token_id', { synchronize: false })
@Entity({ name: 'scim_audit' })
export class ScimAudit {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'uuid', name: 'token_id', nullable: true })
  tokenId!: string | null;

  @Column({ type: 'text' })
  method!: string;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'integer' })
  status!: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key scim_audit_token_id_fkey. */
  @ManyToOne(() => ScimToken)
  @JoinColumn({
    name: 'token_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scim_audit_token_id_fkey',
  })
  token?: Relation<ScimToken>;
}
