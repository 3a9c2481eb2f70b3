import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, ForeignKey } from './columns';
import { WebhookDelivery } from './WebhookDelivery';

/** One HTTP attempt of a delivery: when, the status or the error, how long, the first bytes of the response. */
// USING btree (delivery_id, id)
@Index('webhook_attempts_delivery', { synchronize: false })
@Check('webhook_attempts_latency_ms_check', '(latency_ms >= 0)')
@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'bigint', name: 'delivery_id' }) deliveryId!: string;
  @Column({ type: 'timestamptz', name: 'attempted_at' }) attemptedAt!: Date;
  @Column({ type: 'integer', name: 'status_code', nullable: true }) statusCode!: number | null;

  /** Why no status: `timeout`, `refused_target`, `connection_failed`, … */
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'integer', name: 'latency_ms' }) latencyMs!: number;
  @Column({ type: 'text', name: 'response_excerpt', default: () => "''" }) responseExcerpt!: string;

  @ManyToOne(() => WebhookDelivery)
  @ForeignKey('webhook_attempts_delivery_id_fkey', 'delivery_id')
  delivery?: Relation<WebhookDelivery>;
}
