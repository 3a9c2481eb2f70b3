import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The genomics workspace: topics (one task each), campaigns, clients, imported measurements, reports,
 * package revisions and publications with their object-storage files, notes, assignments, reviews and
 * the per-topic event trail. docs/genomics-state-machine.md says which columns the task workflow owns.
 */
export class Genomics1732500000000 implements MigrationInterface {
  name = 'Genomics1732500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- Trusted extension (PostgreSQL 13+): the database owner may create it. Backs the list search.
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      CREATE TABLE genomics_campaigns (
        id text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 256),
        name text NOT NULL,
        status text NOT NULL DEFAULT 'OPEN',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE genomics_clients (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id text NOT NULL UNIQUE,
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE genomics_topics (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        uid text NOT NULL UNIQUE CHECK (char_length(uid) BETWEEN 1 AND 256),
        -- "C" collation: the keyset order (batch, topic) is bytewise and the same on every server.
        batch text COLLATE "C" NOT NULL,
        topic bigint NOT NULL CHECK (topic >= 1),
        title text,
        category text,
        markdown text,
        tags text[] NOT NULL DEFAULT '{}',
        workflow_status text NOT NULL DEFAULT 'UNASSIGNED'
          CHECK (workflow_status IN ('UNASSIGNED', 'ASSIGNED', 'IN_REVIEW', 'REVIEWED')),
        decision text NOT NULL DEFAULT 'PENDING'
          CHECK (decision IN ('PENDING', 'READY', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED')),
        previous_decision text,
        requires_re_review boolean NOT NULL DEFAULT false,
        decision_campaign_id text REFERENCES genomics_campaigns (id),
        submission_campaign_id text REFERENCES genomics_campaigns (id),
        campaign_id text REFERENCES genomics_campaigns (id),
        disposition text NOT NULL DEFAULT 'ACTIVE'
          CHECK (disposition IN ('ACTIVE', 'REJECTED', 'DISCARDED', 'TIMED_OUT')),
        planned_reviewer_id bigint REFERENCES members (id),
        current_package_version_id bigint,
        deliverable_selection_revision bigint NOT NULL DEFAULT 0,
        status text,
        phase text,
        classification text,
        workflow_version integer NOT NULL DEFAULT 0,
        origin text NOT NULL CHECK (origin IN ('api', 'import')),
        created_by bigint REFERENCES members (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (batch, topic)
      );
      CREATE INDEX genomics_topics_disposition_keyset ON genomics_topics (disposition, batch, topic);
      CREATE INDEX genomics_topics_planned_reviewer ON genomics_topics (planned_reviewer_id)
        WHERE planned_reviewer_id IS NOT NULL;
      CREATE INDEX genomics_topics_uid_trgm ON genomics_topics USING gin (uid gin_trgm_ops);
      CREATE INDEX genomics_topics_title_trgm ON genomics_topics USING gin (title gin_trgm_ops);
      CREATE INDEX genomics_topics_category_trgm ON genomics_topics USING gin (category gin_trgm_ops);

      CREATE TABLE genomics_topic_campaigns (
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        campaign_id text NOT NULL REFERENCES genomics_campaigns (id),
        PRIMARY KEY (topic_id, campaign_id)
      );

      CREATE TABLE genomics_topic_clients (
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        client_id bigint NOT NULL REFERENCES genomics_clients (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (topic_id, client_id)
      );

      CREATE TABLE genomics_assignments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        reviewer_id bigint NOT NULL REFERENCES members (id),
        status text NOT NULL CHECK (status IN ('ACTIVE', 'SUBMITTED', 'CANCELLED', 'EXPIRED')),
        instructions text NOT NULL DEFAULT '',
        due_at timestamptz,
        assigned_by bigint REFERENCES members (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        submitted_at timestamptz,
        closed_at timestamptz
      );
      CREATE INDEX genomics_assignments_topic ON genomics_assignments (topic_id, id DESC);
      CREATE INDEX genomics_assignments_reviewer_visible ON genomics_assignments (reviewer_id, topic_id)
        WHERE status IN ('ACTIVE', 'SUBMITTED');
      CREATE UNIQUE INDEX genomics_assignments_one_active ON genomics_assignments (topic_id) WHERE status = 'ACTIVE';

      CREATE TABLE genomics_reviews (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        assignment_id bigint NOT NULL REFERENCES genomics_assignments (id),
        reviewer_id bigint NOT NULL REFERENCES members (id),
        verdict text NOT NULL
          CHECK (verdict IN ('COMMENT', 'READY_AS_IS', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED')),
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX genomics_reviews_topic ON genomics_reviews (topic_id, id DESC);
      CREATE INDEX genomics_reviews_assignment ON genomics_reviews (assignment_id);

      CREATE TABLE genomics_revisions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        campaign_id text NOT NULL REFERENCES genomics_campaigns (id),
        number integer NOT NULL CHECK (number >= 1),
        status text NOT NULL CHECK (status IN ('IN_PROGRESS', 'COMPLETED')),
        notes text NOT NULL DEFAULT '',
        started_by bigint REFERENCES members (id),
        source_id text,
        object_key text,
        size_bytes bigint,
        sha256 text,
        media_type text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        UNIQUE (topic_id, number),
        UNIQUE (topic_id, source_id),
        CHECK ((status = 'COMPLETED') = (object_key IS NOT NULL AND size_bytes IS NOT NULL AND sha256 IS NOT NULL))
      );
      CREATE INDEX genomics_revisions_topic ON genomics_revisions (topic_id, id DESC);
      CREATE UNIQUE INDEX genomics_revisions_one_open_per_campaign ON genomics_revisions (topic_id, campaign_id)
        WHERE status = 'IN_PROGRESS';
      ALTER TABLE genomics_topics ADD CONSTRAINT genomics_topics_current_package_version
        FOREIGN KEY (current_package_version_id) REFERENCES genomics_revisions (id);

      CREATE TABLE genomics_reports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        source_id text NOT NULL,
        title text NOT NULL,
        media_type text NOT NULL,
        object_key text NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        reported_at timestamptz,
        imported_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (topic_id, source_id)
      );
      CREATE INDEX genomics_reports_topic ON genomics_reports (topic_id, id DESC);

      CREATE TABLE genomics_publications (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        source_id text NOT NULL,
        revision_id bigint REFERENCES genomics_revisions (id),
        title text NOT NULL,
        media_type text NOT NULL,
        object_key text NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        published_at timestamptz,
        imported_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (topic_id, source_id)
      );
      CREATE INDEX genomics_publications_topic ON genomics_publications (topic_id, id DESC);

      CREATE TABLE genomics_measurements (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        source_id text NOT NULL,
        model_id text NOT NULL,
        scope text NOT NULL CHECK (scope IN ('original_report', 'public_package_rerun')),
        status text NOT NULL CHECK (status IN ('MEASURED', 'UNAVAILABLE')),
        scientific_passes integer,
        completed integer,
        measured_at timestamptz NOT NULL,
        artifact_sha256 text NOT NULL,
        evidence_object_key text,
        evidence_size_bytes bigint,
        reason text,
        imported_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (topic_id, source_id),
        -- Missing evidence is UNAVAILABLE with null counts, never a 0% rate.
        CHECK (
          (status = 'MEASURED' AND completed >= 1 AND scientific_passes BETWEEN 0 AND completed
            AND evidence_object_key IS NOT NULL)
          OR (status = 'UNAVAILABLE' AND scientific_passes IS NULL AND completed IS NULL)
        )
      );
      CREATE INDEX genomics_measurements_topic ON genomics_measurements (topic_id, scope, model_id);

      CREATE TABLE genomics_notes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        campaign_id text REFERENCES genomics_campaigns (id),
        author_id bigint NOT NULL REFERENCES members (id),
        body text NOT NULL,
        body_sha256 text NOT NULL,
        edit_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX genomics_notes_topic ON genomics_notes (topic_id, id DESC);

      CREATE TABLE genomics_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic_id bigint NOT NULL REFERENCES genomics_topics (id),
        kind text NOT NULL,
        actor_id bigint REFERENCES members (id),
        workflow_version integer,
        update_id text,
        detail jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (topic_id, update_id)
      );
      CREATE INDEX genomics_events_topic ON genomics_events (topic_id, id DESC);

      CREATE TABLE genomics_imports (
        bundle_id text PRIMARY KEY,
        batch text NOT NULL,
        bundle_sha256 text NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE genomics_topics DROP CONSTRAINT genomics_topics_current_package_version;
      DROP TABLE genomics_imports, genomics_events, genomics_notes, genomics_measurements, genomics_publications,
        genomics_reports, genomics_revisions, genomics_reviews, genomics_assignments, genomics_topic_clients,
        genomics_topic_campaigns, genomics_topics, genomics_clients, genomics_campaigns;
    `);
  }
}
