import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each delivery carries its event's subject, with an index of the pending ones by endpoint and subject: the
 * delivery activity finds "the oldest pending delivery of each subject" by walking an index instead of joining and
 * sorting the endpoint's whole backlog with its events (activities/webhookQueries.ts, `claimDeliveries`).
 * `webhook_emit` and `webhook_withdraw` write it; their bodies are otherwise those of migrations
 * 1767000000026 and 1767100000026.
 */
export class WebhookDeliverySubjects1767400000040 implements MigrationInterface {
  name = 'WebhookDeliverySubjects1767400000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_deliveries ADD COLUMN subject text;
      UPDATE webhook_deliveries d SET subject = v.subject FROM webhook_events v WHERE v.id = d.event_id;
      ALTER TABLE webhook_deliveries ALTER COLUMN subject SET NOT NULL;
      CREATE INDEX webhook_deliveries_pending_subject ON webhook_deliveries (endpoint_id, subject, id)
        WHERE status = 'PENDING';
    `);
    await q.query(emitFunction(true));
    await q.query(withdrawFunction(true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(emitFunction(false));
    await q.query(withdrawFunction(false));
    await q.query(`
      DROP INDEX webhook_deliveries_pending_subject;
      ALTER TABLE webhook_deliveries DROP COLUMN subject;
    `);
  }
}

/**
 * `webhook_emit` as of this migration; migration 1767500000040 gives it another `notify` (a conditional one).
 */
export function emitFunction(
  withSubject: boolean,
  notify = `PERFORM pg_notify('referee_webhook_deliveries', p_service);`,
): string {
  const insertDeliveries = withSubject
    ? `INSERT INTO webhook_deliveries (endpoint_id, event_id, subject)
        SELECT id, event_id, p_subject FROM webhook_endpoints`
    : `INSERT INTO webhook_deliveries (endpoint_id, event_id)
        SELECT id, event_id FROM webhook_endpoints`;
  return `
    CREATE OR REPLACE FUNCTION webhook_emit(p_service text, p_type text, p_subject text, p_data jsonb)
      RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      event_id bigint;
    BEGIN
      IF NOT EXISTS (
        SELECT 1 FROM webhook_endpoints
         WHERE service = p_service AND deleted_at IS NULL AND status <> 'DISABLED' AND p_type = ANY (event_types)
      ) THEN
        RETURN NULL;
      END IF;
      INSERT INTO webhook_events (message_id, service, type, subject, payload)
      VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_service, p_type, p_subject,
              jsonb_build_object('type', p_type,
                                 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                                 'data', p_data))
      RETURNING id INTO event_id;
      ${insertDeliveries}
       WHERE service = p_service AND deleted_at IS NULL AND status <> 'DISABLED' AND p_type = ANY (event_types);
      ${notify}
      RETURN event_id;
    END
    $$;
  `;
}

function withdrawFunction(withSubject: boolean): string {
  const insertDeliveries = withSubject
    ? `INSERT INTO webhook_deliveries (endpoint_id, event_id, subject)
        SELECT unnest(recipients), withdrawal_id, p_subject;`
    : `INSERT INTO webhook_deliveries (endpoint_id, event_id)
        SELECT unnest(recipients), withdrawal_id;`;
  return `
    CREATE OR REPLACE FUNCTION webhook_withdraw(p_service text, p_subject text, p_event_ids text[])
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
        ${insertDeliveries}
        queued := true;
      END LOOP;
      IF queued THEN
        PERFORM pg_notify('referee_webhook_deliveries', p_service);
      END IF;
      RETURN total;
    END
    $$;
  `;
}
