import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { WebhookEndpoint } from './WebhookEndpoint';

/**
 * The last `sequence` given to a subject's deliveries to one endpoint (docs/webhooks.md): a delivery takes the next
 * number when it is first sent, so a receiver sees 1, 2, 3… per subject and a gap means a delivery it missed.
 */
@Entity({ name: 'webhook_subject_sequences' })
export class WebhookSubjectSequence {
  @PrimaryColumn({ type: 'uuid', name: 'endpoint_id' })
  endpointId!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @Column({ type: 'integer', name: 'last_sequence' })
  lastSequence!: number;

  /** Foreign key webhook_subject_sequences_endpoint_id_fkey. */
  @ManyToOne(() => WebhookEndpoint)
  @JoinColumn({
    name: 'endpoint_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'webhook_subject_sequences_endpoint_id_fkey',
  })
  endpoint?: Relation<WebhookEndpoint>;
}
