import type { MigrationInterface, QueryRunner } from 'typeorm';
import { emitFunction } from './1767400000040-WebhookDeliverySubjects';

/**
 * `webhook_emit` notifies only when an endpoint it queued a delivery for is not looking for work by itself. A
 * transaction that sends a NOTIFY takes a database-wide lock for its commit, so a notification per transition made
 * concurrent transitions commit one after the other. An endpoint's delivery that keeps finding work polls instead
 * and says so in `webhook_delivery_polling` until `until` (activities/webhookBatches.ts). Unlogged: after a crash
 * the table is empty and every emit notifies again.
 */
export class WebhookDeliveryPolling1767500000040 implements MigrationInterface {
  name = 'WebhookDeliveryPolling1767500000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE webhook_delivery_polling (
        endpoint_id uuid PRIMARY KEY,
        until timestamptz NOT NULL
      );
    `);
    await q.query(
      emitFunction(
        true,
        // Checked after the inserts, which gave this transaction its id: a delivery that stops polling waits for
        // every transaction that could have seen it polling (activities/webhookPolling.ts).
        `IF EXISTS (
           SELECT 1 FROM webhook_endpoints e
            WHERE e.service = p_service AND e.deleted_at IS NULL AND e.status <> 'DISABLED'
              AND p_type = ANY (e.event_types)
              AND NOT EXISTS (SELECT 1 FROM webhook_delivery_polling p
                               WHERE p.endpoint_id = e.id AND p.until > clock_timestamp())
         ) THEN
           PERFORM pg_notify('referee_webhook_deliveries', p_service);
         END IF;`,
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(emitFunction(true));
    await q.query(`DROP TABLE webhook_delivery_polling`);
  }
}
