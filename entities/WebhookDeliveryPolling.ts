import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An endpoint's delivery that looks for work by itself until `until` (activities/webhookPolling.ts): while it does,
 * `webhook_emit` sends no notification for that endpoint. Unlogged (migration 1767500000040): after a crash it is
 * empty and every emit notifies.
 */
@Entity({ name: 'webhook_delivery_polling' })
export class WebhookDeliveryPolling {
  @PrimaryColumn({ type: 'uuid', name: 'endpoint_id' }) endpointId!: string;
  @Column({ type: 'timestamptz' }) until!: Date;
}
