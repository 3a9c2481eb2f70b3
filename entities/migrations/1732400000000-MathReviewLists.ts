import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Indexes behind the math review lists (filters, `q` substring search, sort orders), client audit events,
 * and millisecond-precision client timestamps so `updated_at` round-trips exactly through JSON.
 */
export class MathReviewLists1732400000000 implements MigrationInterface {
  name = 'MathReviewLists1732400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      -- Task list sort orders: updated/oldest (one index, scanned either way) and topic; task_id breaks ties.
      CREATE INDEX math_tasks_updated ON math_tasks (updated_at, task_id);
      CREATE INDEX math_tasks_topic ON math_tasks (topic_id, task_id);
      -- A Reviewer's lists: their own tasks in update order.
      CREATE INDEX math_tasks_assignee_updated ON math_tasks (assignee_id, updated_at, task_id);
      DROP INDEX math_tasks_assignee;
      CREATE INDEX math_tasks_unassigned ON math_tasks (updated_at, task_id) WHERE assignee_id IS NULL;
      CREATE INDEX math_tasks_client ON math_tasks (client_id, updated_at, task_id);
      CREATE INDEX math_tasks_unlinked ON math_tasks (updated_at, task_id) WHERE client_id IS NULL;
      CREATE INDEX math_tasks_review_state ON math_tasks (review_state, updated_at, task_id);
      CREATE INDEX math_tasks_decision ON math_tasks (decision, updated_at, task_id);
      CREATE INDEX math_tasks_report ON math_tasks (report_id);
      -- Surfaces: archive, and release (current accepted reports).
      CREATE INDEX math_tasks_archived ON math_tasks (updated_at, task_id) WHERE archived;
      CREATE INDEX math_tasks_release ON math_tasks (updated_at, task_id)
        WHERE NOT archived AND review_state = 'COMPLETED' AND decision = 'ACCEPTED' AND report_id IS NOT NULL;
      -- q: case-insensitive substring (ILIKE) on task id, title and problem text.
      CREATE INDEX math_tasks_task_id_trgm ON math_tasks USING gin (task_id gin_trgm_ops);
      CREATE INDEX math_tasks_title_trgm ON math_tasks USING gin (title gin_trgm_ops);
      CREATE INDEX math_tasks_problem_trgm ON math_tasks USING gin (problem gin_trgm_ops);
      CREATE INDEX math_tasks_question_trgm ON math_tasks USING gin (question_id gin_trgm_ops);

      CREATE INDEX math_topics_updated ON math_topics (updated_at DESC, topic_id);
      CREATE INDEX math_topics_latest_run ON math_topics (latest_run_id);
      CREATE INDEX math_topics_title_trgm ON math_topics USING gin (title gin_trgm_ops);
      CREATE INDEX math_topics_topic_id_trgm ON math_topics USING gin (topic_id gin_trgm_ops);
      CREATE INDEX math_runs_imported ON math_runs (imported_at DESC, run_id);
      CREATE INDEX math_runs_title_trgm ON math_runs USING gin (title gin_trgm_ops);
      CREATE INDEX math_reports_run ON math_reports (run_id);
      CREATE INDEX math_task_events_created ON math_task_events (created_at DESC, id DESC);

      ALTER TABLE math_clients
        ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now()),
        ALTER COLUMN updated_at SET DEFAULT date_trunc('milliseconds', now());
      UPDATE math_clients SET created_at = date_trunc('milliseconds', created_at),
        updated_at = date_trunc('milliseconds', updated_at);
      CREATE INDEX math_clients_name_trgm ON math_clients USING gin (name gin_trgm_ops);

      CREATE TABLE math_client_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        client_id bigint NOT NULL REFERENCES math_clients (id),
        kind text NOT NULL CHECK (kind IN ('client_created', 'client_updated')),
        actor_id bigint REFERENCES members (id),
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX math_client_events_created ON math_client_events (created_at DESC, id DESC);
      CREATE INDEX math_client_events_client ON math_client_events (client_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE math_client_events;
      DROP INDEX math_clients_name_trgm, math_task_events_created, math_reports_run, math_runs_title_trgm,
        math_runs_imported, math_topics_topic_id_trgm, math_topics_title_trgm, math_topics_latest_run,
        math_topics_updated, math_tasks_question_trgm, math_tasks_problem_trgm, math_tasks_title_trgm,
        math_tasks_task_id_trgm, math_tasks_release, math_tasks_archived, math_tasks_report, math_tasks_decision,
        math_tasks_review_state, math_tasks_unlinked, math_tasks_client, math_tasks_unassigned,
        math_tasks_assignee_updated, math_tasks_topic, math_tasks_updated;
      CREATE INDEX math_tasks_assignee ON math_tasks (assignee_id);
      ALTER TABLE math_clients ALTER COLUMN created_at SET DEFAULT now(), ALTER COLUMN updated_at SET DEFAULT now();
    `);
  }
}
