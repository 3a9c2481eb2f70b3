import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { IdentityPrimaryColumn, CreatedAtColumn } from './columns';
import type { ServiceName } from './types';

/**
 * The outbox: one committed event that at least one endpoint subscribed to when it was written (by
 * `webhook_emit`, in the transition's own transaction). `message_id` is the `webhook-id` of every delivery
 * and redelivery of it; `payload` is the exact JSON body sent.
 */
// USING btree (service, subject, id)
@Index('webhook_events_subject', { synchronize: false })
@Check('webhook_events_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Unique('webhook_events_message_id_key', ['messageId'])
@Entity({ name: 'webhook_events' })
export class WebhookEvent {
  @IdentityPrimaryColumn() id!: string;
  @Column({ type: 'text', name: 'message_id' }) messageId!: string;
  @Column({ type: 'text' }) service!: ServiceName;
  @Column({ type: 'text' }) type!: string;

  /** What per-subject order is kept for: the math task id, the genomics topic uid, the import or key id. */
  @Column({ type: 'text' }) subject!: string;
  @Column({ type: 'jsonb' }) payload!: { type: string; timestamp: string; data: Record<string, unknown> };
  @CreatedAtColumn() createdAt!: Date;

  /** Set when its transition was replaced as unacknowledged (`webhook_withdraw`): never sent again. */
  @Column({ type: 'timestamptz', name: 'withdrawn_at', nullable: true }) withdrawnAt!: Date | null;
}
