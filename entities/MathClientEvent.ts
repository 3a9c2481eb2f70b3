import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { Member } from './Member';
import { MathClient } from './MathClient';

/** Audit trail of client changes (create, update); listed with task events by `/api/math/activity`. */
@Index('math_client_events_client', ['clientId'])
// USING btree (created_at DESC, id DESC)
@Index('math_client_events_created', { synchronize: false })
@Check(
  'math_client_events_kind_check',
  "(kind = ANY (ARRAY['client_created'::text, 'client_updated'::text]))",
)
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

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail!: Record<string, unknown>;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** Foreign key math_client_events_actor_id_fkey. */
  @ManyToOne(() => Member)
  @JoinColumn({
    name: 'actor_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'math_client_events_actor_id_fkey',
  })
  actor?: Relation<Member>;

  /** Foreign key math_client_events_client_id_fkey. */
  @ManyToOne(() => MathClient)
  @JoinColumn({
    name: 'client_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'math_client_events_client_id_fkey',
  })
  client?: Relation<MathClient>;
}
