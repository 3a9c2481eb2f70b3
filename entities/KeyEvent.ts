import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Creation, revocation and write-request events of one API key. */
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

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
