import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
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
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'client_id' }) clientId!: string;
  @Column({ type: 'text' }) kind!: 'client_created' | 'client_updated';
  @Column({ type: 'bigint', name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) detail!: Record<string, unknown>;
  @CreatedAtColumn() createdAt!: Date;

  @ManyToOne(() => Member)
  @ForeignKey('math_client_events_actor_id_fkey', 'actor_id')
  actor?: Relation<Member>;

  @ManyToOne(() => MathClient)
  @ForeignKey('math_client_events_client_id_fkey', 'client_id')
  client?: Relation<MathClient>;
}
