import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/webhooks.md): endpoints per service, the outbox of events and one delivery per event and
 * subscribed endpoint with its attempts. `webhook_emit` is the one way an event is written: the transition's own
 * statement or transaction calls it, so an event exists if and only if its transition committed. It writes
 * nothing when no live endpoint of the service subscribes to the event's type, and notifies
 * `referee_webhook_deliveries` (at commit) when it queued a delivery, which wakes the endpoints' workflows.
 */
export class Webhooks1767000000026 implements MigrationInterface {
  name = 'Webhooks1767000000026';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
        description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
        event_types text[] NOT NULL CHECK (cardinality(event_types) >= 1),
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED', 'DISABLED')),
        disabled_reason text,
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_expires_at timestamptz,
        created_by_member_id bigint REFERENCES members (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))
      );
      CREATE INDEX webhook_endpoints_live ON webhook_endpoints (service) WHERE deleted_at IS NULL;

      CREATE TABLE webhook_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_id text NOT NULL UNIQUE,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        type text NOT NULL,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE webhook_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
        event_id bigint NOT NULL REFERENCES webhook_events (id),
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
        attempt_count integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_status_code integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CHECK ((status = 'PENDING') = (finished_at IS NULL))
      );
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE status = 'PENDING';
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

      CREATE TABLE webhook_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id),
        attempted_at timestamptz NOT NULL,
        status_code integer,
        error text,
        latency_ms integer NOT NULL CHECK (latency_ms >= 0),
        response_excerpt text NOT NULL DEFAULT ''
      );
      CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
    `);
    await q.query(`
      CREATE FUNCTION webhook_emit(p_service text, p_type text, p_subject text, p_data jsonb)
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
        INSERT INTO webhook_deliveries (endpoint_id, event_id)
        SELECT id, event_id FROM webhook_endpoints
         WHERE service = p_service AND deleted_at IS NULL AND status <> 'DISABLED' AND p_type = ANY (event_types);
        PERFORM pg_notify('referee_webhook_deliveries', p_service);
        RETURN event_id;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION webhook_emit(text, text, text, jsonb);
      DROP TABLE webhook_attempts, webhook_deliveries, webhook_events, webhook_endpoints;
    `);
  }
}
