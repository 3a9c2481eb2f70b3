import { Column, Entity, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ForeignKey } from './columns';
import { WebhookEndpoint } from './WebhookEndpoint';

/**
 * The last `sequence` given to a subject's deliveries to one endpoint (docs/webhooks.md): a delivery takes the next
 * number when it is first sent, so a receiver sees 1, 2, 3… per subject and a gap means a delivery it missed.
 */
@Entity({ name: 'webhook_subject_sequences' })
export class WebhookSubjectSequence {
  @PrimaryColumn({ type: 'uuid', name: 'endpoint_id' }) endpointId!: string;
  @PrimaryColumn({ type: 'text' }) subject!: string;
  @Column({ type: 'integer', name: 'last_sequence' }) lastSequence!: number;

  @ManyToOne(() => WebhookEndpoint)
  @ForeignKey('webhook_subject_sequences_endpoint_id_fkey', 'endpoint_id')
  endpoint?: Relation<WebhookEndpoint>;
}
