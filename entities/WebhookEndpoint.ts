import { Check, Column, Entity, Index, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { CreatedAtColumn, ForeignKey, UpdatedAtColumn } from './columns';
import { Member } from './Member';
import type { ServiceName } from './types';

export const WEBHOOK_ENDPOINT_STATUSES = ['ACTIVE', 'PAUSED', 'DISABLED'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/**
 * A URL one service delivers signed events to (docs/webhooks.md). Its signing secrets are stored sealed
 * (AES-256-GCM under `WEBHOOK_SECRET_KEY`), never in plaintext; during a rotation's grace period the previous
 * secret signs too. A deleted endpoint keeps its row (`deleted_at`) so its deliveries stay readable.
 */
// USING btree (service) WHERE (deleted_at IS NULL)
@Index('webhook_endpoints_live', { synchronize: false })
@Check('webhook_endpoints_check', '((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))')
@Check('webhook_endpoints_description_check', '(char_length(description) <= 500)')
@Check('webhook_endpoints_max_in_flight_check', '((max_in_flight >= 1) AND (max_in_flight <= 100))')
@Check('webhook_endpoints_event_types_check', '(cardinality(event_types) >= 1)')
@Check('webhook_endpoints_service_check', "(service = ANY (ARRAY['math'::text, 'genomics'::text]))")
@Check(
  'webhook_endpoints_status_check',
  "(status = ANY (ARRAY['ACTIVE'::text, 'PAUSED'::text, 'DISABLED'::text]))",
)
@Check('webhook_endpoints_url_check', '((char_length(url) >= 1) AND (char_length(url) <= 2048))')
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text' }) service!: ServiceName;
  @Column({ type: 'text' }) url!: string;
  @Column({ type: 'text', default: () => "''" }) description!: string;
  @Column({ type: 'text', name: 'event_types', array: true }) eventTypes!: string[];
  @Column({ type: 'text', default: () => "'ACTIVE'" }) status!: WebhookEndpointStatus;

  /** Why delivery stopped on its own (`gone`: the receiver answered 410; `failing`: 5 days without a success). */
  @Column({ type: 'text', name: 'disabled_reason', nullable: true }) disabledReason!: string | null;
  @Column({ type: 'text', name: 'secret_sealed' }) secretSealed!: string;

  @Column({ type: 'text', name: 'previous_secret_sealed', nullable: true })
  previousSecretSealed!: string | null;

  @Column({ type: 'timestamptz', name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** How many of its deliveries are sent at once (each of another subject). */
  @Column({ type: 'integer', name: 'max_in_flight', default: 16 }) maxInFlight!: number;

  /** Failed attempts since its last success: the circuit breaker opens at a threshold. */
  @Column({ type: 'integer', name: 'consecutive_failures', default: 0 }) consecutiveFailures!: number;

  /** The first failed attempt since its last success; null while it succeeds. */
  @Column({ type: 'timestamptz', name: 'failing_since', nullable: true }) failingSince!: Date | null;
  @Column({ type: 'timestamptz', name: 'last_success_at', nullable: true }) lastSuccessAt!: Date | null;
  @Column({ type: 'bigint', name: 'created_by_member_id', nullable: true }) createdByMemberId!: string | null;
  @CreatedAtColumn() createdAt!: Date;
  @UpdatedAtColumn() updatedAt!: Date;
  @Column({ type: 'timestamptz', name: 'deleted_at', nullable: true }) deletedAt!: Date | null;

  @ManyToOne(() => Member)
  @ForeignKey('webhook_endpoints_created_by_member_id_fkey', 'created_by_member_id')
  createdBy?: Relation<Member>;
}
