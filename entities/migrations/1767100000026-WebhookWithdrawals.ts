import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Withdrawing the webhook events of an unacknowledged transition (docs/webhooks.md, "Withdrawn events"): a
 * transition committed by a workflow task that never completed is replaced by the workflow's next one
 * (docs/decisions.md), and its events must not outlive it. `webhook_withdraw`, called in the replacing
 * transaction, marks them withdrawn, cancels their deliveries that have not ended, and sends
 * `<service>.<subject>.withdrawn` to every endpoint an attempt may have reached. An attempt marks its delivery
 * (`first_sent_at`) before it connects, under the delivery's row lock, so a withdrawal either cancels the delivery
 * before anything is sent or knows that something may have been.
 */
export class WebhookWithdrawals1767100000026 implements MigrationInterface {
  name = 'WebhookWithdrawals1767100000026';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_events ADD COLUMN withdrawn_at timestamptz;
      CREATE INDEX webhook_events_subject ON webhook_events (service, subject, id);

      ALTER TABLE webhook_deliveries ADD COLUMN first_sent_at timestamptz;
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
        CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'));
    `);
    await q.query(`
      CREATE FUNCTION webhook_withdraw(p_service text, p_subject text, p_event_ids text[])
        RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE
        withdrawn record;
        recipients uuid[];
        withdrawal_id bigint;
        withdrawal_type text := CASE p_service WHEN 'math' THEN 'math.task.withdrawn'
                                               ELSE 'genomics.topic.withdrawn' END;
        subject_field text := CASE p_service WHEN 'math' THEN 'task_id' ELSE 'topic_uid' END;
        queued boolean := false;
        total integer := 0;
      BEGIN
        FOR withdrawn IN
          WITH marked AS (
            UPDATE webhook_events SET withdrawn_at = now()
             WHERE service = p_service AND subject = p_subject AND withdrawn_at IS NULL
               AND payload -> 'data' ->> 'event_id' = ANY (p_event_ids)
            RETURNING id, message_id, type, payload
          )
          SELECT * FROM marked ORDER BY id
        LOOP
          total := total + 1;
          -- Under the deliveries' locks an attempt can neither start nor end: first_sent_at is final here.
          PERFORM 1 FROM webhook_deliveries WHERE event_id = withdrawn.id FOR UPDATE;
          SELECT array_agg(d.endpoint_id ORDER BY d.endpoint_id) INTO recipients
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.event_id = withdrawn.id AND d.first_sent_at IS NOT NULL AND e.deleted_at IS NULL;
          UPDATE webhook_deliveries SET status = 'CANCELLED', finished_at = clock_timestamp()
           WHERE event_id = withdrawn.id AND status = 'PENDING';
          CONTINUE WHEN recipients IS NULL;
          INSERT INTO webhook_events (message_id, service, type, subject, payload)
          VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_service, withdrawal_type, p_subject,
                  jsonb_build_object(
                    'type', withdrawal_type,
                    'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                    'data', jsonb_build_object(
                      subject_field, p_subject,
                      'withdrawn_webhook_id', withdrawn.message_id,
                      'withdrawn_type', withdrawn.type,
                      'withdrawn_event_id', withdrawn.payload -> 'data' ->> 'event_id',
                      'reason', 'unacknowledged_transition',
                      'withdrawn_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))))
          RETURNING id INTO withdrawal_id;
          INSERT INTO webhook_deliveries (endpoint_id, event_id)
          SELECT unnest(recipients), withdrawal_id;
          queued := true;
        END LOOP;
        IF queued THEN
          PERFORM pg_notify('referee_webhook_deliveries', p_service);
        END IF;
        RETURN total;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION webhook_withdraw(text, text, text[]);
      DELETE FROM webhook_attempts WHERE delivery_id IN (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
         WHERE v.type IN ('math.task.withdrawn', 'genomics.topic.withdrawn'));
      DELETE FROM webhook_deliveries WHERE event_id IN (
        SELECT id FROM webhook_events WHERE type IN ('math.task.withdrawn', 'genomics.topic.withdrawn'));
      DELETE FROM webhook_events WHERE type IN ('math.task.withdrawn', 'genomics.topic.withdrawn');
      UPDATE webhook_deliveries SET status = 'FAILED' WHERE status = 'CANCELLED';
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
        CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED'));
      ALTER TABLE webhook_deliveries DROP COLUMN first_sent_at;
      DROP INDEX webhook_events_subject;
      ALTER TABLE webhook_events DROP COLUMN withdrawn_at;
    `);
  }
}
