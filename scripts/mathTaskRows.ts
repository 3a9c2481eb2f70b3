import type { DataSource } from 'typeorm';

/** Reviewers of the generated tasks (`bench|r1` … `bench|r20`); `bench|owner` is their Owner. */
export const REVIEWERS = 20;

/** Digits of a task number in its id (`bench-000042`): six up to 999,999 tasks, so ids stay unique at any size. */
const idDigitsFor = (tasks: number) => Math.max(6, String(tasks).length);

/** The id of generated task `n` among `tasks`. */
export const generatedTaskId = (n: number, tasks: number): string =>
  `bench-${String(n).padStart(idDigitsFor(tasks), '0')}`;

/**
 * Fills a migrated, empty database with `tasks` generated math tasks, valid rows of the projection the task lists
 * read (runs, topics, reports, reviewers, clients, some events), with INSERT … SELECT generate_series: the
 * dataset of `npm run explain:math` and of the console's 1,000,000-task test. Tasks 0–3 of every 20
 * are unassigned; the rest cycle through the reviewers, review states and decisions.
 */
export async function generateMathTasks(db: DataSource, tasks: number): Promise<void> {
  const idDigits = idDigitsFor(tasks);
  await db.query(`
    INSERT INTO members (service, identity_id, username, display_name, role, primary_admin)
    VALUES ('math', 'bench|owner', 'owner', 'Bench Owner', 'OWNER', false);
    INSERT INTO members (service, identity_id, username, display_name, role)
    SELECT 'math', 'bench|r' || i, 'r' || i, 'Bench Reviewer ' || i, 'REVIEWER' FROM generate_series(1, ${REVIEWERS}) i;
    INSERT INTO math_runs (run_id, title, source, started_at, completed_at, imported_at, bundle_sha256)
    SELECT 'bench-run-' || i, 'Bench run ' || i, 'generator', now() - i * interval '1 day',
           now() - i * interval '1 day' + interval '1 hour', now() - i * interval '1 day', md5(i::text)
      FROM generate_series(0, 9) i;
    INSERT INTO math_topics (topic_id, title, latest_run_id)
    SELECT 'bench-topic-' || i, 'Bench topic ' || i, 'bench-run-' || (i % 10) FROM generate_series(0, 199) i;
    INSERT INTO math_artifacts (artifact_id, run_id, kind, class, source_path, filename, media_type, object_key,
                                size_bytes, sha256)
    SELECT 'bench-art-' || i, 'bench-run-' || (i % 10), 'REPORT', 'STANDARD', 'reports/' || i || '.md', i || '.md',
           'text/markdown', 'sha256/00/' || md5(i::text), 100, md5(i::text)
      FROM generate_series(0, 19999) i;
    INSERT INTO math_reports (report_id, run_id, artifact_id, source_id)
    SELECT 'bench-rep-' || i, 'bench-run-' || (i % 10), 'bench-art-' || i, NULL FROM generate_series(0, 19999) i;
    INSERT INTO math_clients (name) SELECT 'Bench client ' || i FROM generate_series(1, 5) i;
  `);
  // A million rows insert several times faster into an unindexed table; the indexes (trigram GIN among them) are
  // built afterwards from their own definitions, so the database ends as migrated.
  const indexes: Array<{ name: string; definition: string }> = await db.query(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = 'math_tasks'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.query(`DROP INDEX "${index.name}"`);
  // Tasks 0–3 of every 20 are unassigned; the rest cycle through the reviewers' states and decisions.
  await db.query(
    `WITH r AS (SELECT array_agg(id ORDER BY id) AS ids FROM members WHERE identity_id LIKE 'bench|r%'),
          c AS (SELECT array_agg(id ORDER BY id) AS ids FROM math_clients),
          g AS (SELECT i, i % 20 < 4 AS unassigned,
                       (ARRAY['ASSIGNED', 'IN_REVIEW', 'COMPLETED'])[1 + i % 3] AS state
                  FROM generate_series(1, $1::int) i)
     INSERT INTO math_tasks (task_id, run_id, topic_id, question_id, title, problem, report_id, review_state, decision,
                             assignee_id, client_id, archived, version, created_at, updated_at, imported_at)
     SELECT 'bench-' || lpad(g.i::text, ${idDigits}, '0'), 'bench-run-' || (g.i % 10), 'bench-topic-' || (g.i % 200),
            'q' || (g.i / 4),
            'Task ' || g.i || ': ' ||
              (ARRAY['prime gaps', 'logistic map', 'sums of squares', 'graph colouring', 'modular forms'])[1 + g.i % 5]
              || ' ' || left(md5(g.i::text), 8),
            'Show that the bound holds for case_' || g.i || ' in ' || (g.i % 100) || '% of trials; digest '
              || md5((g.i::bigint * 7)::text) || '.',
            CASE WHEN g.i % 10 = 0 THEN NULL ELSE 'bench-rep-' || ((g.i / 5) % 20000) END,
            CASE WHEN g.unassigned THEN 'UNASSIGNED' ELSE g.state END,
            CASE WHEN NOT g.unassigned AND g.state = 'COMPLETED'
                 THEN (ARRAY['ACCEPTED', 'NEEDS_REVISION', 'REJECTED'])[1 + g.i % 7 % 3] END,
            CASE WHEN g.unassigned THEN NULL ELSE r.ids[1 + g.i % ${REVIEWERS}] END,
            CASE WHEN g.i % 4 = 0 THEN NULL ELSE c.ids[1 + g.i % 5] END,
            g.i % 25 = 1,
            g.i % 9,
            now() - interval '60 days',
            -- about two tasks per minute over 35 days: ties on updated_at are common, as after an import
            date_trunc('minute', now() - ((g.i::bigint * 7919) % 50000) * interval '1 minute'),
            now() - interval '60 days'
       FROM g, r, c`,
    [tasks],
  );
  await db.query(`SET maintenance_work_mem = '256MB'`);
  for (const index of indexes) await db.query(index.definition);
  await db.query('RESET maintenance_work_mem');
  // One workflow event for every third task, so the last-event and event-count lookups meet real rows.
  await db.query(
    `INSERT INTO math_task_events (task_id, version, action, actor_id, comment, from_state, to_state, update_id)
     SELECT t.task_id, 1, 'feedback', t.assignee_id, 'Looks right.', 'ASSIGNED', 'IN_REVIEW', 'bench-' || t.task_id
       FROM math_tasks t WHERE t.assignee_id IS NOT NULL AND right(t.task_id, 1) IN ('0', '3', '6')`,
  );
  await db.query('ANALYZE');
}
