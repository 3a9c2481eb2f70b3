import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Audit trail of client changes (create, update); listed with task events by `/api/math/activity`. */
@Entity({ name: 'math_client_events' })
export class MathClientEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint', name: 'client_id' })
  clientId!: string;

  @Column({ type: 'text' })
  kind!: 'client_created' | 'client_updated';

  @Column({ type: 'bigint', name: 'actor_id', nullable: true })
  actorId!: string | null;

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;
}
