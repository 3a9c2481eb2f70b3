import { Check, Column, Entity, Index, ManyToOne, type Relation } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn, ForeignKey } from './columns';
import { WebhookEndpoint } from './WebhookEndpoint';
import { WebhookEvent } from './WebhookEvent';

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event to one endpoint: pending until a 2xx or until its retries are spent; a redelivery reopens it.
 * CANCELLED: its event was withdrawn before the delivery ended (docs/webhooks.md).
 */
// USING btree (endpoint_id, id) WHERE (status = 'PENDING'::text)
@Index('webhook_deliveries_pending', { synchronize: false })
// USING btree (endpoint_id, subject, id) WHERE (status = 'PENDING'::text)
@Index('webhook_deliveries_pending_subject', { synchronize: false })
// USING btree (endpoint_id, id DESC)
@Index('webhook_deliveries_endpoint', { synchronize: false })
// USING btree (event_id)
@Index('webhook_deliveries_event', { synchronize: false })
@Check('webhook_deliveries_check', "((status = 'PENDING'::text) = (finished_at IS NULL))")
@Check(
  'webhook_deliveries_status_check',
  "(status = ANY (ARRAY['PENDING'::text, 'SUCCEEDED'::text, 'FAILED'::text, 'CANCELLED'::text]))",
)
@Entity({ name: 'webhook_deliveries' })
export class WebhookDelivery {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'uuid', name: 'endpoint_id' }) endpointId!: string;
  @Column({ type: 'bigint', name: 'event_id' }) eventId!: string;

  /** Its event's subject (`webhook_events.subject`): a subject's pending deliveries go one at a time. */
  @Column({ type: 'text' }) subject!: string;
  @Column({ type: 'text', default: () => "'PENDING'" }) status!: WebhookDeliveryStatus;
  @Column({ type: 'integer', name: 'attempt_count', default: 0 }) attemptCount!: number;
  @Column({ type: 'timestamptz', name: 'next_attempt_at', default: () => 'now()' }) nextAttemptAt!: Date;
  @Column({ type: 'integer', name: 'last_status_code', nullable: true }) lastStatusCode!: number | null;
  @CreatedAtColumn() createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;

  /** When an attempt first began to send it: from then on the receiver may have it (a withdrawal follows it). */
  @Column({ type: 'timestamptz', name: 'first_sent_at', nullable: true }) firstSentAt!: Date | null;

  /** Its number among its subject's deliveries to the endpoint, given when it is first sent (the body's `sequence`). */
  @Column({ type: 'integer', nullable: true }) sequence!: number | null;

  @ManyToOne(() => WebhookEndpoint)
  @ForeignKey('webhook_deliveries_endpoint_id_fkey', 'endpoint_id')
  endpoint?: Relation<WebhookEndpoint>;

  @ManyToOne(() => WebhookEvent)
  @ForeignKey('webhook_deliveries_event_id_fkey', 'event_id')
  event?: Relation<WebhookEvent>;
}
