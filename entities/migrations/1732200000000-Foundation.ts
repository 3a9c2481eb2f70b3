import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Members and keys of both services, idempotency receipts, audit trails, and the math run/task model. */
export class Foundation1732200000000 implements MigrationInterface {
  name = 'Foundation1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE members (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        identity_id text NOT NULL,
        username text NOT NULL,
        display_name text NOT NULL,
        email text,
        role text NOT NULL CHECK (role IN ('REVIEWER', 'OWNER', 'ADMIN')),
        enabled boolean NOT NULL DEFAULT true,
        primary_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (service, identity_id)
      );

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        member_id bigint NOT NULL REFERENCES members (id),
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('REVIEWER', 'OWNER', 'ADMIN')),
        scopes text[] NOT NULL,
        secret_hash bytea NOT NULL,
        created_by_key_id uuid REFERENCES api_keys (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      CREATE INDEX api_keys_member_created ON api_keys (member_id, created_at DESC);

      CREATE TABLE idempotency_records (
        service text NOT NULL,
        member_id bigint NOT NULL REFERENCES members (id),
        idempotency_key text NOT NULL,
        operation_id text NOT NULL,
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('IN_PROGRESS', 'COMPLETED')),
        locked_until timestamptz,
        response_status integer,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (service, member_id, idempotency_key)
      );

      CREATE TABLE key_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key_id uuid NOT NULL REFERENCES api_keys (id),
        kind text NOT NULL,
        method text,
        path text,
        status integer,
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX key_events_key_created ON key_events (key_id, id DESC);

      CREATE TABLE identity_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        service text NOT NULL CHECK (service IN ('math', 'genomics')),
        kind text NOT NULL,
        member_id bigint REFERENCES members (id),
        key_id uuid,
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX identity_audit_service_id ON identity_audit (service, id DESC);

      CREATE TABLE math_runs (
        run_id text PRIMARY KEY,
        title text NOT NULL,
        source text,
        started_at timestamptz,
        completed_at timestamptz,
        imported_at timestamptz NOT NULL DEFAULT now(),
        bundle_sha256 text NOT NULL
      );

      CREATE TABLE math_topics (
        topic_id text PRIMARY KEY,
        title text NOT NULL,
        latest_run_id text NOT NULL REFERENCES math_runs (run_id),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE math_artifacts (
        artifact_id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES math_runs (run_id),
        kind text NOT NULL CHECK (kind IN ('REPORT', 'CHECKPOINT', 'PUBLIC_INPUT', 'PUBLIC_TASKS', 'EVIDENCE')),
        class text NOT NULL CHECK (class IN ('STANDARD', 'PRIVATE', 'PROVENANCE')),
        source_path text NOT NULL,
        filename text NOT NULL,
        media_type text NOT NULL,
        object_key text NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX math_artifacts_run ON math_artifacts (run_id);

      CREATE TABLE math_reports (
        report_id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES math_runs (run_id),
        artifact_id text NOT NULL REFERENCES math_artifacts (artifact_id),
        source_id text
      );

      CREATE TABLE math_clients (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX math_clients_name_ci ON math_clients (lower(name));

      CREATE TABLE math_tasks (
        task_id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES math_runs (run_id),
        topic_id text NOT NULL REFERENCES math_topics (topic_id),
        question_id text NOT NULL,
        title text NOT NULL,
        problem text NOT NULL,
        report_id text REFERENCES math_reports (report_id),
        review_state text NOT NULL DEFAULT 'UNASSIGNED',
        decision text,
        assignee_id bigint REFERENCES members (id),
        client_id bigint REFERENCES math_clients (id),
        archived boolean NOT NULL DEFAULT false,
        version integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        imported_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX math_tasks_assignee ON math_tasks (assignee_id);
      CREATE INDEX math_tasks_run ON math_tasks (run_id);
      CREATE INDEX math_tasks_question ON math_tasks (question_id);

      CREATE TABLE math_task_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        task_id text NOT NULL REFERENCES math_tasks (task_id),
        version integer NOT NULL,
        action text NOT NULL,
        actor_id bigint REFERENCES members (id),
        comment text,
        from_state text NOT NULL,
        to_state text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}',
        update_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (task_id, version)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE math_task_events, math_tasks, math_clients, math_reports, math_artifacts, math_topics, math_runs,
        identity_audit, key_events, idempotency_records, api_keys, members;
    `);
  }
}
