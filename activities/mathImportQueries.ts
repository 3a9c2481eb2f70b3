import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from 'typeorm';
import {
  type MathBundleArtifact,
  type MathBundleEvidence,
  type MathBundleManifest,
  type MathBundleReport,
  type MathBundleTask,
  recordBatches,
} from './bundles/mathBundle';
import { batches, UPSERT_BATCH } from './importQueries';

/** The statements of a math run's import: its per-table upserts, run in its final transaction (see mathImport.ts). */

/** Rows an upsert inserted and updated (rows equal to the bundle's are left alone and counted in neither). */
export interface RowChanges {
  inserted: number;
  updated: number;
}

/** What an import changed per table, and the evidence it removed. */
export type MathRunChanges = Record<
  'clients' | 'topics' | 'artifacts' | 'reports' | 'tasks' | 'evidence',
  RowChanges
> & {
  evidenceRemoved: number;
};

export const none = (): RowChanges => ({ inserted: 0, updated: 0 });

/** The digest of a run's last import, if any; `lock` locks its row for the final transaction. */
export async function previousRunDigest(
  db: Pick<EntityManager, 'query'>,
  runId: string,
  lock = false,
): Promise<string | undefined> {
  const [previous]: Array<{ bundle_sha256: string }> = await db.query(
    `SELECT bundle_sha256 FROM math_runs WHERE run_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [runId],
  );
  return previous?.bundle_sha256;
}

/** Runs one `INSERT … ON CONFLICT … RETURNING (xmax = 0) AS inserted` and counts what it did. */
async function counted(tx: EntityManager, upsert: string, params: unknown[]): Promise<RowChanges> {
  const [row]: Array<RowChanges> = await tx.query(
    `WITH up AS (${upsert} RETURNING (xmax = 0) AS inserted)
     SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
       FROM up`,
    params,
  );
  return row;
}

const add = (total: RowChanges, more: RowChanges) => {
  total.inserted += more.inserted;
  total.updated += more.updated;
};

/** The run row: upserted on every import (a re-import refreshes `imported_at`). */
async function upsertRunRow(
  tx: EntityManager,
  run: MathBundleManifest['run'],
  digest: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO math_runs (run_id, title, source, started_at, completed_at, bundle_sha256, imported_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (run_id) DO UPDATE SET title = EXCLUDED.title, source = EXCLUDED.source,
       started_at = EXCLUDED.started_at, completed_at = EXCLUDED.completed_at,
       bundle_sha256 = EXCLUDED.bundle_sha256, imported_at = now()`,
    [run.run_id, run.title, run.source ?? null, run.started_at ?? null, run.completed_at ?? null, digest],
  );
}

/** New clients (matched case-insensitively); existing ones stay as the service keeps them. */
async function insertNewClients(
  tx: EntityManager,
  runId: string,
  clients: NonNullable<MathBundleManifest['clients']>,
): Promise<RowChanges> {
  const changes = none();
  for (const chunk of batches(clients)) {
    // Existing clients (any case) are left as the service keeps them; new ones get a `client_created` event.
    const [row]: Array<{ inserted: number }> = await tx.query(
      `WITH created AS (
         INSERT INTO math_clients (name, description)
         SELECT c.name, c.description FROM unnest($1::text[], $2::text[]) AS c(name, description)
         ON CONFLICT ((lower(name))) DO NOTHING
         RETURNING id, name, description, enabled
       ), events AS (
         INSERT INTO math_client_events (client_id, kind, actor_id, detail)
         SELECT id, 'client_created', NULL,
                jsonb_build_object('name', name, 'description', description, 'enabled', enabled, 'imported_by_run', $3::text)
           FROM created
       )
       SELECT count(*)::int AS inserted FROM created`,
      [chunk.map((c) => c.name), chunk.map((c) => c.description ?? ''), runId],
    );
    changes.inserted += row.inserted;
  }
  return changes;
}

async function upsertTopics(
  tx: EntityManager,
  runId: string,
  topics: MathBundleManifest['topics'],
): Promise<RowChanges> {
  const changes = none();
  for (const chunk of batches(topics)) {
    add(
      changes,
      await counted(
        tx,
        `INSERT INTO math_topics (topic_id, title, latest_run_id, updated_at)
         SELECT t.topic_id, t.title, $1, now() FROM unnest($2::text[], $3::text[]) AS t(topic_id, title)
         ON CONFLICT (topic_id) DO UPDATE SET title = EXCLUDED.title, latest_run_id = EXCLUDED.latest_run_id,
           updated_at = now()
         WHERE (math_topics.title, math_topics.latest_run_id) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.latest_run_id)`,
        [runId, chunk.map((t) => t.topic_id), chunk.map((t) => t.title)],
      ),
    );
  }
  return changes;
}

/**
 * Artifacts with the object key, size and SHA-256 their stored file got. The plan staged the bundle's artifacts
 * in order as ordinals 0, 1, …, and the final transaction reads the same records (their digest is checked), so each
 * batch joins its receipts by ordinal through the receipts' primary key instead of holding them all.
 */
async function upsertArtifacts(
  tx: EntityManager,
  runId: string,
  importId: string,
  bundle: { dir: string; manifest: MathBundleManifest },
): Promise<RowChanges> {
  const changes = none();
  let start = 0;
  for await (const chunk of recordBatches<MathBundleArtifact>(
    bundle.dir,
    bundle.manifest,
    'artifacts',
    UPSERT_BATCH,
  )) {
    const [row]: Array<RowChanges & { stored: number }> = await tx.query(
      `WITH a AS (
         SELECT a.*, r.object_key, r.size_bytes, r.sha256
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
             AS a(id, kind, class, path, media_type, n)
           JOIN import_artifact_receipts r
             ON r.import_run_id = $2 AND r.ordinal = $8::int + a.n::int - 1 AND r.artifact_key = a.id
            AND r.object_key IS NOT NULL
       ), up AS (
         INSERT INTO math_artifacts (artifact_id, run_id, kind, class, source_path, filename, media_type, object_key,
           size_bytes, sha256, imported_at)
         SELECT a.id, $1, a.kind, a.class, a.path, regexp_replace(a.path, '^.*/', ''), a.media_type, a.object_key,
           a.size_bytes, a.sha256, now()
           FROM a
         ON CONFLICT (artifact_id) DO UPDATE SET kind = EXCLUDED.kind, class = EXCLUDED.class,
           source_path = EXCLUDED.source_path, filename = EXCLUDED.filename, media_type = EXCLUDED.media_type,
           object_key = EXCLUDED.object_key, size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256,
           imported_at = now()
         WHERE (math_artifacts.kind, math_artifacts.class, math_artifacts.source_path, math_artifacts.media_type,
                math_artifacts.object_key, math_artifacts.size_bytes, math_artifacts.sha256)
           IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.class, EXCLUDED.source_path, EXCLUDED.media_type,
                EXCLUDED.object_key, EXCLUDED.size_bytes, EXCLUDED.sha256)
         RETURNING (xmax = 0) AS inserted
       )
       SELECT (SELECT count(*) FROM a)::int AS stored, count(*) FILTER (WHERE inserted)::int AS inserted,
              count(*) FILTER (WHERE NOT inserted)::int AS updated
         FROM up`,
      [
        runId,
        importId,
        chunk.map((a) => a.artifact_id),
        chunk.map((a) => a.kind),
        chunk.map((a) => a.class),
        chunk.map((a) => a.path),
        chunk.map((a) => a.media_type),
        start,
      ],
    );
    // Every artifact of the batch must have met its stored receipt; the transaction rolls back otherwise.
    if (row.stored !== chunk.length)
      throw ApplicationFailure.nonRetryable(
        `${chunk.length - row.stored} artifacts of import ${importId} (in ${chunk[0].artifact_id} … ${chunk[chunk.length - 1].artifact_id}) were not stored`,
        'files_not_stored',
      );
    add(changes, row);
    start += chunk.length;
  }
  return changes;
}

async function upsertReports(
  tx: EntityManager,
  runId: string,
  bundle: { dir: string; manifest: MathBundleManifest },
): Promise<RowChanges> {
  const changes = none();
  for await (const chunk of recordBatches<MathBundleReport>(
    bundle.dir,
    bundle.manifest,
    'reports',
    UPSERT_BATCH,
  )) {
    add(
      changes,
      await counted(
        tx,
        `INSERT INTO math_reports (report_id, run_id, artifact_id, source_id)
         SELECT r.id, $1, r.artifact_id, r.source_id FROM unnest($2::text[], $3::text[], $4::text[])
           AS r(id, artifact_id, source_id)
         ON CONFLICT (report_id) DO UPDATE SET artifact_id = EXCLUDED.artifact_id, source_id = EXCLUDED.source_id
         WHERE (math_reports.artifact_id, math_reports.source_id) IS DISTINCT FROM (EXCLUDED.artifact_id, EXCLUDED.source_id)`,
        [
          runId,
          chunk.map((x) => x.report_id),
          chunk.map((x) => x.artifact_id),
          chunk.map((x) => x.source_id ?? null),
        ],
      ),
    );
  }
  return changes;
}

/**
 * The bundle's task ids and the task ids its evidence names, in temporary tables of the final transaction (dropped
 * at its end): evidence is replaced per task of the bundle, and a million ids are the database's to hold, not the
 * worker's.
 */
async function createBundleIdTables(tx: EntityManager): Promise<void> {
  await tx.query(
    `CREATE TEMPORARY TABLE import_bundle_tasks (task_id text PRIMARY KEY) ON COMMIT DROP;
     CREATE TEMPORARY TABLE import_bundle_evidence (task_id text PRIMARY KEY) ON COMMIT DROP`,
  );
}

const rememberIds = (
  tx: EntityManager,
  table: 'import_bundle_tasks' | 'import_bundle_evidence',
  ids: string[],
) => tx.query(`INSERT INTO ${table} (task_id) SELECT unnest($1::text[])`, [ids]);

/** Tasks, streamed in batches from the bundle, their ids remembered in `import_bundle_tasks`. */
async function upsertTasks(
  tx: EntityManager,
  runId: string,
  bundle: { dir: string; manifest: MathBundleManifest },
): Promise<RowChanges> {
  const changes = none();
  for await (const chunk of recordBatches<MathBundleTask>(
    bundle.dir,
    bundle.manifest,
    'tasks',
    UPSERT_BATCH,
  )) {
    await rememberIds(
      tx,
      'import_bundle_tasks',
      chunk.map((t) => t.task_id),
    );
    add(
      changes,
      await counted(
        tx,
        `INSERT INTO math_tasks (task_id, run_id, topic_id, question_id, title, problem, report_id, client_id, imported_at)
         SELECT x.task_id, $1, x.topic_id, x.question_id, x.title, x.problem, x.report_id, c.id, now()
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
             AS x(task_id, topic_id, question_id, title, problem, report_id, client)
           LEFT JOIN math_clients c ON lower(c.name) = lower(x.client)
         ON CONFLICT (task_id) DO UPDATE SET run_id = EXCLUDED.run_id, topic_id = EXCLUDED.topic_id,
           question_id = EXCLUDED.question_id, title = EXCLUDED.title, problem = EXCLUDED.problem,
           report_id = EXCLUDED.report_id, imported_at = now()
         WHERE (math_tasks.run_id, math_tasks.topic_id, math_tasks.question_id, math_tasks.title, math_tasks.problem,
                math_tasks.report_id)
           IS DISTINCT FROM (EXCLUDED.run_id, EXCLUDED.topic_id, EXCLUDED.question_id, EXCLUDED.title,
                EXCLUDED.problem, EXCLUDED.report_id)`,
        [
          runId,
          chunk.map((t) => t.task_id),
          chunk.map((t) => t.topic_id),
          chunk.map((t) => t.question_id),
          chunk.map((t) => t.title),
          chunk.map((t) => t.problem),
          chunk.map((t) => t.report_id),
          chunk.map((t) => t.client ?? null),
        ],
      ),
    );
  }
  return changes;
}

/** The bundle's evidence replaces its tasks' evidence: a task without an entry now has none. */
async function replaceEvidence(
  tx: EntityManager,
  runId: string,
  bundle: { dir: string; manifest: MathBundleManifest },
): Promise<{ changes: RowChanges; removed: number }> {
  const changes = none();
  const json = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : null);
  for await (const chunk of recordBatches<MathBundleEvidence>(
    bundle.dir,
    bundle.manifest,
    'evidence',
    UPSERT_BATCH,
  )) {
    await rememberIds(
      tx,
      'import_bundle_evidence',
      chunk.map((e) => e.task_id),
    );
    add(
      changes,
      await counted(
        tx,
        `INSERT INTO math_task_evidence (task_id, run_id, report_id, rubric, review, quality_gate, imported_at)
         SELECT e.task_id, $1, e.report_id, e.rubric, e.review, e.quality_gate, now()
           FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[])
             AS e(task_id, report_id, rubric, review, quality_gate)
         ON CONFLICT (task_id) DO UPDATE SET run_id = EXCLUDED.run_id, report_id = EXCLUDED.report_id,
           rubric = EXCLUDED.rubric, review = EXCLUDED.review, quality_gate = EXCLUDED.quality_gate, imported_at = now()
         WHERE (math_task_evidence.run_id, math_task_evidence.report_id, math_task_evidence.rubric,
                math_task_evidence.review, math_task_evidence.quality_gate)
           IS DISTINCT FROM (EXCLUDED.run_id, EXCLUDED.report_id, EXCLUDED.rubric, EXCLUDED.review, EXCLUDED.quality_gate)`,
        [
          runId,
          chunk.map((e) => e.task_id),
          chunk.map((e) => e.report_id),
          chunk.map((e) => json(e.rubric)),
          chunk.map((e) => json(e.review)),
          chunk.map((e) => json(e.quality_gate)),
        ],
      ),
    );
  }
  const [, removed]: [unknown, number] = await tx.query(
    `DELETE FROM math_task_evidence e USING import_bundle_tasks t
      WHERE e.task_id = t.task_id AND NOT EXISTS (SELECT 1 FROM import_bundle_evidence x WHERE x.task_id = t.task_id)`,
  );
  return { changes, removed };
}

/** Upserts a run's rows, table by table, in the final transaction; returns what changed per table. */
export async function upsertRun(
  tx: EntityManager,
  bundleDir: string,
  manifest: MathBundleManifest,
  digest: string,
  importId: string,
): Promise<MathRunChanges> {
  const runId = manifest.run.run_id;
  const bundle = { dir: bundleDir, manifest };
  await upsertRunRow(tx, manifest.run, digest);
  const clients = await insertNewClients(tx, runId, manifest.clients ?? []);
  const topics = await upsertTopics(tx, runId, manifest.topics);
  const artifacts = await upsertArtifacts(tx, runId, importId, bundle);
  const reports = await upsertReports(tx, runId, bundle);
  await createBundleIdTables(tx);
  const tasks = await upsertTasks(tx, runId, bundle);
  const evidence = await replaceEvidence(tx, runId, bundle);
  return {
    clients,
    topics,
    artifacts,
    reports,
    tasks,
    evidence: evidence.changes,
    evidenceRemoved: evidence.removed,
  };
}
