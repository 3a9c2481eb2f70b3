/** The statements of a genomics bundle import: its per-table upserts, run in its final transaction (see genomicsImport.ts). */

import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from 'typeorm';
import { genomicsTopicUid } from '../workflows/genomicsTask/ids';
import { deriveGenomicsLabels, initialGenomicsState } from '../workflows/genomicsTask/state';
import {
  type GenomicsBundleManifest,
  type GenomicsBundleMeasurement,
  type GenomicsBundlePublication,
  type GenomicsBundleReport,
  type GenomicsBundleRevision,
  type GenomicsBundleTopic,
  type GenomicsRecordList,
  recordBatches,
} from './bundles/genomicsBundle';
import { batches, type FileReceipt, UPSERT_BATCH } from './importQueries';

/** An opened bundle: its manifest and where its record files are (see `recordBatches`). */
export interface OpenedGenomicsBundle {
  dir: string;
  manifest: GenomicsBundleManifest;
}

/** A list's records in batches of UPSERT_BATCH, inline or from its JSONL file: a list is never held whole. */
const chunks = <T>(bundle: OpenedGenomicsBundle, key: GenomicsRecordList) =>
  recordBatches<T>(bundle.dir, bundle.manifest, key, UPSERT_BATCH);

/** SHA-256 of zero bytes: the evidence digest of a measurement that has no evidence file. */
export const EMPTY_SHA256 = createHash('sha256').digest('hex');

export async function upsertCampaignsAndClients(tx: EntityManager, m: GenomicsBundleManifest): Promise<void> {
  for (const chunk of batches(m.campaigns)) {
    await tx.query(
      `INSERT INTO genomics_campaigns (id, name, status)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, updated_at = now()
       WHERE (genomics_campaigns.name, genomics_campaigns.status) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.status)`,
      [chunk.map((c) => c.campaign_id), chunk.map((c) => c.name), chunk.map((c) => c.status)],
    );
  }
  for (const chunk of batches(m.clients)) {
    await tx.query(
      `INSERT INTO genomics_clients (source_id, name, enabled)
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[])
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled, updated_at = now()
       WHERE (genomics_clients.name, genomics_clients.enabled) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.enabled)`,
      [chunk.map((c) => c.client_id), chunk.map((c) => c.name), chunk.map((c) => c.enabled)],
    );
  }
}

/** Inserts the bundle's new topics in their initial review state; returns the numbers of those created. */
export async function insertTopics(
  tx: EntityManager,
  bundle: OpenedGenomicsBundle,
  markdownOf: (topics: GenomicsBundleTopic[]) => Promise<Array<string | null>>,
): Promise<Set<number>> {
  const state = initialGenomicsState();
  const labels = deriveGenomicsLabels(state);
  const created = new Set<number>();
  const batch = bundle.manifest.bundle.batch;
  for await (const chunk of chunks<GenomicsBundleTopic>(bundle, 'topics')) {
    const markdown = await markdownOf(chunk);
    // Tags travel as JSON: unnest cannot take an array of arrays of different lengths.
    const rows: Array<{ topic: string }> = await tx.query(
      `INSERT INTO genomics_topics (uid, batch, topic, title, category, markdown, tags, campaign_id, decision,
         disposition, workflow_status, status, phase, classification, origin)
       SELECT t.uid, $1, t.topic, t.title, t.category, t.markdown,
              ARRAY(SELECT jsonb_array_elements_text(t.tags)), t.campaign_id, $2, $3, $4, $5, $6, $7, 'import'
         FROM unnest($8::text[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::text[])
           AS t(uid, topic, title, category, markdown, tags, campaign_id)
       ON CONFLICT (batch, topic) DO NOTHING RETURNING topic::text`,
      [
        batch,
        state.decision,
        state.disposition,
        labels.workflowStatus,
        labels.status,
        labels.phase,
        labels.classification,
        chunk.map((t) => genomicsTopicUid(batch, t.topic)),
        chunk.map((t) => t.topic),
        chunk.map((t) => t.title),
        chunk.map((t) => t.category),
        markdown,
        chunk.map((t) => JSON.stringify(t.tags)),
        chunk.map((t) => t.campaign_id),
      ],
    );
    rows.forEach((r) => created.add(Number(r.topic)));
  }
  return created;
}

/** What a bundle brings to each topic it lists or refers to: its records of each list. */
export type RecordsPerTopic = Map<
  number,
  { measurements: number; reports: number; revisions: number; publications: number }
>;

/**
 * Every topic the bundle lists or refers to, listed topics first, with its records counted: one pass over the
 * lists, whose keys are the topics to lock and whose values are the `imported` events' detail.
 */
export async function recordsPerTopic(bundle: OpenedGenomicsBundle): Promise<RecordsPerTopic> {
  const perTopic: RecordsPerTopic = new Map();
  const entry = (topic: number) => {
    let counts = perTopic.get(topic);
    if (!counts)
      perTopic.set(topic, (counts = { measurements: 0, reports: 0, revisions: 0, publications: 0 }));
    return counts;
  };
  for await (const chunk of chunks<GenomicsBundleTopic>(bundle, 'topics'))
    chunk.forEach((t) => entry(t.topic));
  for (const list of ['measurements', 'reports', 'revisions', 'publications'] as const)
    for await (const chunk of chunks<{ topic: number }>(bundle, list))
      chunk.forEach((x) => (entry(x.topic)[list] += 1));
  return perTopic;
}

/** The id of each of `numbers` (topics of `batch`), locked; every one must exist. */
export async function topicIdsOf(
  tx: EntityManager,
  batch: string,
  numbers: number[],
): Promise<Map<number, string>> {
  const rows: Array<{ id: string; topic: string }> = await tx.query(
    'SELECT id::text, topic::text FROM genomics_topics WHERE batch = $1 AND topic = ANY($2::bigint[]) FOR UPDATE',
    [batch, numbers],
  );
  const ids = new Map(rows.map((r) => [Number(r.topic), r.id]));
  const missing = numbers.filter((n) => !ids.has(n));
  if (missing.length > 0) {
    throw ApplicationFailure.nonRetryable(
      `Topics ${missing.map((n) => genomicsTopicUid(batch, n)).join(', ')} do not exist`,
      'invalid_bundle',
    );
  }
  return ids;
}

/** Adds topic–campaign and topic–client links; an import never removes one. */
export async function linkTopics(
  tx: EntityManager,
  bundle: OpenedGenomicsBundle,
  idOf: (t: number) => string,
): Promise<void> {
  for await (const topics of chunks<GenomicsBundleTopic>(bundle, 'topics')) {
    const campaignLinks = topics.flatMap((t) =>
      [...new Set([...t.campaign_ids, ...(t.campaign_id ? [t.campaign_id] : [])])].map((c) => [
        idOf(t.topic),
        c,
      ]),
    );
    for (const chunk of batches(campaignLinks)) {
      await tx.query(
        `INSERT INTO genomics_topic_campaigns (topic_id, campaign_id)
         SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT DO NOTHING`,
        [chunk.map((l) => l[0]), chunk.map((l) => l[1])],
      );
    }
    const clientLinks = topics.flatMap((t) => t.client_ids.map((c) => [idOf(t.topic), c]));
    for (const chunk of batches(clientLinks)) {
      await tx.query(
        `INSERT INTO genomics_topic_clients (topic_id, client_id)
       SELECT l.topic_id, c.id FROM unnest($1::bigint[], $2::text[]) AS l(topic_id, source_id)
         JOIN genomics_clients c ON c.source_id = l.source_id
       ON CONFLICT DO NOTHING`,
        [chunk.map((l) => l[0]), chunk.map((l) => l[1])],
      );
    }
  }
}

/**
 * A measurement is MEASURED only with an evidence file and at least one completed attempt; otherwise it is
 * UNAVAILABLE with null counts and a reason. Unchanged rows are left alone.
 */
export async function upsertMeasurements(
  tx: EntityManager,
  bundle: OpenedGenomicsBundle,
  idOf: (t: number) => string,
  fileOf: (path: string) => FileReceipt,
) {
  for await (const chunk of chunks<GenomicsBundleMeasurement>(bundle, 'measurements')) {
    const rows = chunk.map((x) => {
      const evidence = x.evidence ? fileOf(x.evidence.path) : null;
      const measured = evidence !== null && x.completed !== null && x.completed >= 1;
      const reason = measured
        ? x.reason
        : (x.reason ?? (evidence === null ? 'no evidence' : 'no completed attempts'));
      return { x, evidence, measured, reason };
    });
    await tx.query(
      `INSERT INTO genomics_measurements (topic_id, source_id, model_id, scope, status, scientific_passes,
         completed, measured_at, artifact_sha256, evidence_object_key, evidence_size_bytes, reason)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[],
         $8::timestamptz[], $9::text[], $10::text[], $11::bigint[], $12::text[])
       ON CONFLICT (topic_id, source_id) DO UPDATE SET model_id = EXCLUDED.model_id, scope = EXCLUDED.scope,
         status = EXCLUDED.status, scientific_passes = EXCLUDED.scientific_passes,
         completed = EXCLUDED.completed, measured_at = EXCLUDED.measured_at,
         artifact_sha256 = EXCLUDED.artifact_sha256, evidence_object_key = EXCLUDED.evidence_object_key,
         evidence_size_bytes = EXCLUDED.evidence_size_bytes, reason = EXCLUDED.reason, imported_at = now()
       WHERE (genomics_measurements.model_id, genomics_measurements.scope, genomics_measurements.status,
              genomics_measurements.scientific_passes, genomics_measurements.completed,
              genomics_measurements.measured_at, genomics_measurements.artifact_sha256,
              genomics_measurements.evidence_object_key, genomics_measurements.evidence_size_bytes,
              genomics_measurements.reason)
         IS DISTINCT FROM (EXCLUDED.model_id, EXCLUDED.scope, EXCLUDED.status, EXCLUDED.scientific_passes,
              EXCLUDED.completed, EXCLUDED.measured_at, EXCLUDED.artifact_sha256, EXCLUDED.evidence_object_key,
              EXCLUDED.evidence_size_bytes, EXCLUDED.reason)`,
      [
        rows.map((r) => idOf(r.x.topic)),
        rows.map((r) => r.x.measurement_id),
        rows.map((r) => r.x.model_id),
        rows.map((r) => r.x.scope),
        rows.map((r) => (r.measured ? 'MEASURED' : 'UNAVAILABLE')),
        rows.map((r) => (r.measured ? r.x.scientific_passes : null)),
        rows.map((r) => (r.measured ? r.x.completed : null)),
        rows.map((r) => r.x.measured_at),
        rows.map((r) => r.evidence?.sha256 ?? EMPTY_SHA256),
        rows.map((r) => r.evidence?.objectKey ?? null),
        rows.map((r) => r.evidence?.sizeBytes ?? null),
        rows.map((r) => r.reason),
      ],
    );
  }
}

export async function upsertReports(
  tx: EntityManager,
  bundle: OpenedGenomicsBundle,
  idOf: (t: number) => string,
  fileOf: (path: string) => FileReceipt,
) {
  for await (const chunk of chunks<GenomicsBundleReport>(bundle, 'reports')) {
    const files = chunk.map((r) => fileOf(r.file.path));
    await tx.query(
      `INSERT INTO genomics_reports (topic_id, source_id, title, media_type, object_key, size_bytes, sha256, reported_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
         $8::timestamptz[])
       ON CONFLICT (topic_id, source_id) DO UPDATE SET title = EXCLUDED.title,
         media_type = EXCLUDED.media_type, object_key = EXCLUDED.object_key, size_bytes = EXCLUDED.size_bytes,
         sha256 = EXCLUDED.sha256, reported_at = EXCLUDED.reported_at, imported_at = now()
       WHERE (genomics_reports.title, genomics_reports.media_type, genomics_reports.object_key,
              genomics_reports.size_bytes, genomics_reports.sha256, genomics_reports.reported_at)
         IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.media_type, EXCLUDED.object_key, EXCLUDED.size_bytes,
              EXCLUDED.sha256, EXCLUDED.reported_at)`,
      [
        chunk.map((r) => idOf(r.topic)),
        chunk.map((r) => r.report_id),
        chunk.map((r) => r.title),
        chunk.map((r) => r.file.media_type),
        files.map((f) => f.objectKey),
        files.map((f) => f.sizeBytes),
        files.map((f) => f.sha256),
        chunk.map((r) => r.reported_at),
      ],
    );
  }
}

export async function upsertPublications(
  tx: EntityManager,
  bundle: OpenedGenomicsBundle,
  idOf: (t: number) => string,
  fileOf: (path: string) => FileReceipt,
  revisionIds: Map<string, string>,
) {
  for await (const chunk of chunks<GenomicsBundlePublication>(bundle, 'publications')) {
    const files = chunk.map((p) => fileOf(p.file.path));
    await tx.query(
      `INSERT INTO genomics_publications (topic_id, source_id, revision_id, title, media_type, object_key,
         size_bytes, sha256, published_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[],
         $8::text[], $9::timestamptz[])
       ON CONFLICT (topic_id, source_id) DO UPDATE SET revision_id = EXCLUDED.revision_id,
         title = EXCLUDED.title, media_type = EXCLUDED.media_type, object_key = EXCLUDED.object_key,
         size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256, published_at = EXCLUDED.published_at,
         imported_at = now()
       WHERE (genomics_publications.revision_id, genomics_publications.title, genomics_publications.media_type,
              genomics_publications.object_key, genomics_publications.size_bytes, genomics_publications.sha256,
              genomics_publications.published_at)
         IS DISTINCT FROM (EXCLUDED.revision_id, EXCLUDED.title, EXCLUDED.media_type, EXCLUDED.object_key,
              EXCLUDED.size_bytes, EXCLUDED.sha256, EXCLUDED.published_at)`,
      [
        chunk.map((p) => idOf(p.topic)),
        chunk.map((p) => p.publication_id),
        chunk.map((p) => (p.revision_id ? (revisionIds.get(p.revision_id) ?? null) : null)),
        chunk.map((p) => p.title),
        chunk.map((p) => p.file.media_type),
        files.map((f) => f.objectKey),
        files.map((f) => f.sizeBytes),
        files.map((f) => f.sha256),
        chunk.map((p) => p.published_at),
      ],
    );
  }
}

/**
 * A bundle revision updates the revision it imported before; otherwise it completes the topic's
 * IN_PROGRESS revision for the same campaign (one started through the API), or is added as a new one.
 */
export async function upsertRevision(
  tx: EntityManager,
  topicId: string,
  r: GenomicsBundleRevision,
  f: FileReceipt,
): Promise<string> {
  const file = [r.file.media_type, f.objectKey, f.sizeBytes, f.sha256, r.completed_at];
  // TypeORM answers an UPDATE with [rows, affected count].
  const [[known]]: [Array<{ id: string }>, number] = await tx.query(
    `UPDATE genomics_revisions SET campaign_id = $3, notes = $4, media_type = $5, object_key = $6, size_bytes = $7,
            sha256 = $8, completed_at = COALESCE($9, completed_at, now()), status = 'COMPLETED', updated_at = now()
      WHERE topic_id = $1 AND source_id = $2 RETURNING id::text`,
    [topicId, r.revision_id, r.campaign_id, r.notes, ...file],
  );
  if (known) return known.id;
  const [[open]]: [Array<{ id: string }>, number] = await tx.query(
    `UPDATE genomics_revisions SET source_id = $3, media_type = $4, object_key = $5, size_bytes = $6, sha256 = $7,
            completed_at = COALESCE($8, now()), status = 'COMPLETED', updated_at = now()
      WHERE topic_id = $1 AND campaign_id = $2 AND status = 'IN_PROGRESS' RETURNING id::text`,
    [topicId, r.campaign_id, r.revision_id, ...file],
  );
  if (open) return open.id;
  const [inserted]: Array<{ id: string }> = await tx.query(
    `INSERT INTO genomics_revisions (topic_id, campaign_id, number, status, notes, source_id, media_type, object_key,
       size_bytes, sha256, completed_at)
     VALUES ($1, $2, (SELECT COALESCE(max(number), 0) + 1 FROM genomics_revisions WHERE topic_id = $1), 'COMPLETED',
       $3, $4, $5, $6, $7, $8, COALESCE($9, now()))
     RETURNING id::text`,
    [topicId, r.campaign_id, r.notes, r.revision_id, ...file],
  );
  return inserted.id;
}

/** One `imported` event per topic the bundle lists or refers to, with what it brought. */
export async function writeImportEvents(
  tx: EntityManager,
  bundleId: string,
  perTopic: RecordsPerTopic,
  idOf: (t: number) => string,
  created: Set<number>,
): Promise<number> {
  for (const chunk of batches([...perTopic])) {
    await tx.query(
      `INSERT INTO genomics_events (topic_id, kind, detail)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::jsonb[])`,
      [
        chunk.map(([topic]) => idOf(topic)),
        chunk.map(() => 'imported'),
        chunk.map(([topic, detail]) =>
          JSON.stringify({ bundle_id: bundleId, topic_created: created.has(topic), ...detail }),
        ),
      ],
    );
  }
  return perTopic.size;
}

/** The digest of a bundle's last import, if any; `lock` locks its row for the final transaction. */
export async function previousBundleDigest(
  db: Pick<EntityManager, 'query'>,
  bundleId: string,
  lock = false,
): Promise<string | undefined> {
  const [previous]: Array<{ bundle_sha256: string }> = await db.query(
    `SELECT bundle_sha256 FROM genomics_imports WHERE bundle_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [bundleId],
  );
  return previous?.bundle_sha256;
}

/** Records the bundle's digest as its last import. */
export async function recordBundleImport(
  tx: EntityManager,
  bundle: { bundleId: string; batch: string; sha256: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO genomics_imports (bundle_id, batch, bundle_sha256) VALUES ($1, $2, $3)
     ON CONFLICT (bundle_id) DO UPDATE SET batch = EXCLUDED.batch, bundle_sha256 = EXCLUDED.bundle_sha256,
       imported_at = now()`,
    [bundle.bundleId, bundle.batch, bundle.sha256],
  );
}
