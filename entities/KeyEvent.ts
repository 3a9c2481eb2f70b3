import { Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { ApiKey } from './ApiKey';

/** Creation, revocation and write-request events of one API key. */
// USING btree (key_id, id DESC)
@Index('key_events_key_created', { synchronize: false })
@Entity({ name: 'key_events' })
export class KeyEvent {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'uuid', name: 'key_id' }) keyId!: string;
  @Column({ type: 'text' }) kind!: 'created' | 'revoked' | 'write_request';
  @Column({ type: 'text', nullable: true }) method!: string | null;
  @Column({ type: 'text', nullable: true }) path!: string | null;
  @Column({ type: 'integer', nullable: true }) status!: number | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => ApiKey)
  @ForeignKey('key_events_key_id_fkey', 'key_id')
  key?: Relation<ApiKey>;
}
