import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery limited by the receiver (docs/webhooks.md, "Delivery"): each endpoint sends up to
 * `max_in_flight` deliveries at once, one per subject, and numbers each subject's deliveries
 * (`webhook_subject_sequences`, the body's `sequence`) when they are first sent. The endpoint's health is kept with
 * it: consecutive failed attempts (its circuit breaker), since when it has failed without a success (5 days of it
 * disable it, `disabled_reason: failing`), and its last success.
 */
export class WebhookBatchDelivery1767300000040 implements MigrationInterface {
  name = 'WebhookBatchDelivery1767300000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN max_in_flight integer NOT NULL DEFAULT 16
          CONSTRAINT webhook_endpoints_max_in_flight_check CHECK (max_in_flight BETWEEN 1 AND 100),
        ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN last_success_at timestamptz;

      ALTER TABLE webhook_deliveries ADD COLUMN sequence integer;

      CREATE TABLE webhook_subject_sequences (
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
        subject text NOT NULL,
        last_sequence integer NOT NULL,
        PRIMARY KEY (endpoint_id, subject)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE webhook_subject_sequences;
      ALTER TABLE webhook_deliveries DROP COLUMN sequence;
      ALTER TABLE webhook_endpoints DROP COLUMN max_in_flight, DROP COLUMN consecutive_failures,
        DROP COLUMN failing_since, DROP COLUMN last_success_at;
    `);
  }
}
