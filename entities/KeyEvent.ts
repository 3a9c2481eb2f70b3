import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { ApiKey } from './ApiKey';

/** Creation, revocation and write-request events of one API key. */
// USING btree (key_id, id DESC)
@Index('key_events_key_created', { synchronize: false })
@Entity({ name: 'key_events' })
export class KeyEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'uuid', name: 'key_id' })
  keyId!: string;

  @Column({ type: 'text' })
  kind!: 'created' | 'revoked' | 'write_request';

  @Column({ type: 'text', nullable: true })
  method!: string | null;

  @Column({ type: 'text', nullable: true })
  path!: string | null;

  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key key_events_key_id_fkey. */
  @ManyToOne(() => ApiKey)
  @JoinColumn({
    name: 'key_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'key_events_key_id_fkey',
  })
  key?: Relation<ApiKey>;
}
