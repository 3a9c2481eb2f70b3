import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import { digestFile, putFileContentAddressed } from '../storage/objectStore';
import { genomicsTopicUid } from '../workflows/genomicsTask/ids';
import { deriveGenomicsLabels, initialGenomicsState } from '../workflows/genomicsTask/state';
import {
  type BundleFile,
  bundleFiles,
  externalCampaigns,
  externalTopics,
  type GenomicsBundleManifest,
  readGenomicsBundle,
} from './bundles/genomicsBundle';
import { InvalidBundleError } from './bundles/mathBundle';

/** SHA-256 of zero bytes: the evidence digest of a measurement that has no evidence file. */
export const EMPTY_SHA256 = createHash('sha256').digest('hex');
/** The topic markdown bound of the API applies to imports too. */
const MARKDOWN_MAX_CHARS = 2_000_000;

export interface GenomicsImportPlan {
  bundleId: string;
  batch: string;
  manifestSha256: string;
  files: Array<{ path: string; mediaType: string; expectedSha256: string | null }>;
  topicCount: number;
}

export interface StoredGenomicsFile {
  path: string;
  objectKey: string;
  sha256: string;
  sizeBytes: number;
  uploaded: boolean;
}

export interface UpsertGenomicsBundleResult {
  bundleId: string;
  unchanged: boolean;
  topicsCreated: number;
  topicsTouched: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

/** Activities of the genomics import: check the bundle, upload its files, upsert its records. */
export function genomicsImportActivities(deps: { dataSource: DataSource; s3: S3Client; bucket: string }) {
  const { dataSource, s3, bucket } = deps;

  return {
    /** Checks the manifest and that every topic and campaign it refers to without listing exists. */
    async planGenomicsImport(bundleDir: string): Promise<GenomicsImportPlan> {
      const { manifest, sha256 } = await readBundleOrFail(bundleDir);
      const problems: string[] = [];
      const topics = externalTopics(manifest);
      if (topics.length > 0) {
        const found: Array<{ topic: string }> = await dataSource.query(
          'SELECT topic::text FROM genomics_topics WHERE batch = $1 AND topic = ANY($2::bigint[])',
          [manifest.bundle.batch, topics],
        );
        const known = new Set(found.map((r) => Number(r.topic)));
        for (const t of topics) {
          if (!known.has(t))
            problems.push(`topic ${genomicsTopicUid(manifest.bundle.batch, t)} is neither listed nor known`);
        }
      }
      const campaigns = externalCampaigns(manifest);
      if (campaigns.length > 0) {
        const found: Array<{ id: string }> = await dataSource.query(
          'SELECT id FROM genomics_campaigns WHERE id = ANY($1::text[])',
          [campaigns],
        );
        const known = new Set(found.map((r) => r.id));
        for (const c of campaigns)
          if (!known.has(c)) problems.push(`campaign "${c}" is neither listed nor known`);
      }
      if (problems.length > 0) {
        throw ApplicationFailure.create({
          type: 'invalid_bundle',
          message: `Invalid bundle:\n  ${problems.join('\n  ')}`,
          nonRetryable: true,
          details: [problems.map((message) => ({ file: 'manifest.json', path: '$', message }))],
        });
      }
      return {
        bundleId: manifest.bundle.bundle_id,
        batch: manifest.bundle.batch,
        manifestSha256: sha256,
        files: bundleFiles(manifest).map((f) => ({
          path: f.path,
          mediaType: f.media_type,
          expectedSha256: f.sha256 ?? null,
        })),
        topicCount: manifest.topics.length,
      };
    },

    /** Hashes a bundle file, checks it against the manifest's checksum, then stores it content-addressed. */
    async storeGenomicsFile(input: {
      bundleDir: string;
      path: string;
      mediaType: string;
      expectedSha256: string | null;
    }): Promise<StoredGenomicsFile> {
      const file = join(input.bundleDir, input.path);
      const digest = await digestFile(file);
      if (input.expectedSha256 && input.expectedSha256 !== digest.sha256) {
        throw ApplicationFailure.nonRetryable(
          `${input.path} has SHA-256 ${digest.sha256}, the bundle says ${input.expectedSha256}`,
          'checksum_mismatch',
        );
      }
      const { key, uploaded } = await putFileContentAddressed(s3, bucket, file, digest, input.mediaType);
      return {
        path: input.path,
        objectKey: key,
        sha256: digest.sha256,
        sizeBytes: digest.sizeBytes,
        uploaded,
      };
    },

    /**
     * Upserts campaigns, clients, topics and their links, measurements, reports, revisions and publications
     * in one transaction, with one `imported` event per topic touched. Existing topics keep their brief and
     * their review state (those belong to the workspace and the task workflows); links are only added.
     */
    async upsertGenomicsBundle(input: {
      bundleDir: string;
      stored: StoredGenomicsFile[];
    }): Promise<UpsertGenomicsBundleResult> {
      const { manifest, sha256 } = await readBundleOrFail(input.bundleDir);
      const markdown = await readMarkdown(input.bundleDir, manifest);
      const stored = new Map(input.stored.map((s) => [s.path, s]));
      const fileOf = (f: BundleFile): StoredGenomicsFile => {
        const s = stored.get(f.path);
        if (!s) throw ApplicationFailure.nonRetryable(`File ${f.path} was not stored`, 'file_missing');
        return s;
      };
      const counts = {
        measurements: manifest.measurements.length,
        reports: manifest.reports.length,
        revisions: manifest.revisions.length,
        publications: manifest.publications.length,
      };
      const { bundle_id: bundleId, batch } = manifest.bundle;

      return dataSource.transaction(async (tx) => {
        const previous: Array<{ bundle_sha256: string }> = await tx.query(
          'SELECT bundle_sha256 FROM genomics_imports WHERE bundle_id = $1 FOR UPDATE',
          [bundleId],
        );
        if (previous[0]?.bundle_sha256 === sha256) {
          return { bundleId, unchanged: true, topicsCreated: 0, topicsTouched: 0, ...counts };
        }
        await upsertCampaignsAndClients(tx, manifest);
        const created = await insertTopics(tx, manifest, markdown);
        const topicIds = await topicIdsOf(tx, manifest);
        const idOf = (topic: number) => topicIds.get(topic) as string;
        await linkTopics(tx, manifest, idOf);

        for (const m of manifest.measurements) {
          const evidence = m.evidence ? fileOf(m.evidence) : null;
          const measured = evidence !== null && m.completed !== null && m.completed >= 1;
          const reason = measured
            ? m.reason
            : (m.reason ?? (evidence === null ? 'no evidence' : 'no completed attempts'));
          await tx.query(
            `INSERT INTO genomics_measurements (topic_id, source_id, model_id, scope, status, scientific_passes,
               completed, measured_at, artifact_sha256, evidence_object_key, evidence_size_bytes, reason)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (topic_id, source_id) DO UPDATE SET model_id = EXCLUDED.model_id, scope = EXCLUDED.scope,
               status = EXCLUDED.status, scientific_passes = EXCLUDED.scientific_passes,
               completed = EXCLUDED.completed, measured_at = EXCLUDED.measured_at,
               artifact_sha256 = EXCLUDED.artifact_sha256, evidence_object_key = EXCLUDED.evidence_object_key,
               evidence_size_bytes = EXCLUDED.evidence_size_bytes, reason = EXCLUDED.reason, imported_at = now()`,
            [
              idOf(m.topic),
              m.measurement_id,
              m.model_id,
              m.scope,
              measured ? 'MEASURED' : 'UNAVAILABLE',
              measured ? m.scientific_passes : null,
              measured ? m.completed : null,
              m.measured_at,
              evidence?.sha256 ?? EMPTY_SHA256,
              evidence?.objectKey ?? null,
              evidence?.sizeBytes ?? null,
              reason,
            ],
          );
        }
        for (const r of manifest.reports) {
          const f = fileOf(r.file);
          await tx.query(
            `INSERT INTO genomics_reports (topic_id, source_id, title, media_type, object_key, size_bytes, sha256,
               reported_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (topic_id, source_id) DO UPDATE SET title = EXCLUDED.title,
               media_type = EXCLUDED.media_type, object_key = EXCLUDED.object_key, size_bytes = EXCLUDED.size_bytes,
               sha256 = EXCLUDED.sha256, reported_at = EXCLUDED.reported_at, imported_at = now()`,
            [
              idOf(r.topic),
              r.report_id,
              r.title,
              r.file.media_type,
              f.objectKey,
              f.sizeBytes,
              f.sha256,
              r.reported_at,
            ],
          );
        }
        const revisionIds = new Map<string, string>();
        for (const r of manifest.revisions) {
          revisionIds.set(r.revision_id, await upsertRevision(tx, idOf(r.topic), r, fileOf(r.file)));
        }
        for (const p of manifest.publications) {
          const f = fileOf(p.file);
          await tx.query(
            `INSERT INTO genomics_publications (topic_id, source_id, revision_id, title, media_type, object_key,
               size_bytes, sha256, published_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (topic_id, source_id) DO UPDATE SET revision_id = EXCLUDED.revision_id,
               title = EXCLUDED.title, media_type = EXCLUDED.media_type, object_key = EXCLUDED.object_key,
               size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256, published_at = EXCLUDED.published_at,
               imported_at = now()`,
            [
              idOf(p.topic),
              p.publication_id,
              p.revision_id ? revisionIds.get(p.revision_id) : null,
              p.title,
              p.file.media_type,
              f.objectKey,
              f.sizeBytes,
              f.sha256,
              p.published_at,
            ],
          );
        }
        const touched = await writeImportEvents(tx, manifest, idOf, created);
        await tx.query(
          `INSERT INTO genomics_imports (bundle_id, batch, bundle_sha256) VALUES ($1, $2, $3)
           ON CONFLICT (bundle_id) DO UPDATE SET bundle_sha256 = EXCLUDED.bundle_sha256, imported_at = now()`,
          [bundleId, batch, sha256],
        );
        return { bundleId, unchanged: false, topicsCreated: created.size, topicsTouched: touched, ...counts };
      });
    },
  };
}

async function readBundleOrFail(bundleDir: string) {
  try {
    return await readGenomicsBundle(bundleDir);
  } catch (error) {
    if (error instanceof InvalidBundleError) {
      throw ApplicationFailure.create({
        type: 'invalid_bundle',
        message: error.message,
        nonRetryable: true,
        details: [error.problems],
      });
    }
    throw error;
  }
}

async function readMarkdown(
  bundleDir: string,
  manifest: GenomicsBundleManifest,
): Promise<Map<number, string>> {
  const markdown = new Map<number, string>();
  for (const t of manifest.topics) {
    if (!t.markdown_path) continue;
    const text = await readFile(join(bundleDir, t.markdown_path), 'utf8');
    if (text.length > MARKDOWN_MAX_CHARS || text.includes('\u0000')) {
      throw ApplicationFailure.nonRetryable(
        `${t.markdown_path} must be text of at most ${MARKDOWN_MAX_CHARS} characters without NUL`,
        'invalid_bundle',
      );
    }
    markdown.set(t.topic, text);
  }
  return markdown;
}

async function upsertCampaignsAndClients(tx: EntityManager, m: GenomicsBundleManifest): Promise<void> {
  for (const c of m.campaigns) {
    await tx.query(
      `INSERT INTO genomics_campaigns (id, name, status) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, updated_at = now()
       WHERE (genomics_campaigns.name, genomics_campaigns.status) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.status)`,
      [c.campaign_id, c.name, c.status ?? 'OPEN'],
    );
  }
  for (const c of m.clients) {
    await tx.query(
      `INSERT INTO genomics_clients (source_id, name, enabled) VALUES ($1, $2, $3)
       ON CONFLICT (source_id) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled, updated_at = now()
       WHERE (genomics_clients.name, genomics_clients.enabled) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.enabled)`,
      [c.client_id, c.name, c.enabled ?? true],
    );
  }
}

/** Inserts the bundle's new topics in their initial review state; returns the numbers of those created. */
async function insertTopics(
  tx: EntityManager,
  m: GenomicsBundleManifest,
  markdown: Map<number, string>,
): Promise<Set<number>> {
  const state = initialGenomicsState();
  const labels = deriveGenomicsLabels(state);
  const created = new Set<number>();
  for (const t of m.topics) {
    const rows: Array<{ topic: string }> = await tx.query(
      `INSERT INTO genomics_topics (uid, batch, topic, title, category, markdown, tags, campaign_id, decision,
         disposition, workflow_status, status, phase, classification, origin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'import')
       ON CONFLICT (batch, topic) DO NOTHING RETURNING topic::text`,
      [
        genomicsTopicUid(m.bundle.batch, t.topic),
        m.bundle.batch,
        t.topic,
        t.title,
        t.category,
        markdown.get(t.topic) ?? null,
        t.tags,
        t.campaign_id,
        state.decision,
        state.disposition,
        labels.workflowStatus,
        labels.status,
        labels.phase,
        labels.classification,
      ],
    );
    if (rows.length === 1) created.add(t.topic);
  }
  return created;
}

async function topicIdsOf(tx: EntityManager, m: GenomicsBundleManifest): Promise<Map<number, string>> {
  const numbers = [...new Set([...m.topics.map((t) => t.topic), ...externalTopics(m)])];
  const rows: Array<{ id: string; topic: string }> = await tx.query(
    'SELECT id::text, topic::text FROM genomics_topics WHERE batch = $1 AND topic = ANY($2::bigint[]) FOR UPDATE',
    [m.bundle.batch, numbers],
  );
  const ids = new Map(rows.map((r) => [Number(r.topic), r.id]));
  const missing = numbers.filter((n) => !ids.has(n));
  if (missing.length > 0) {
    throw ApplicationFailure.nonRetryable(
      `Topics ${missing.map((n) => genomicsTopicUid(m.bundle.batch, n)).join(', ')} do not exist`,
      'invalid_bundle',
    );
  }
  return ids;
}

async function linkTopics(tx: EntityManager, m: GenomicsBundleManifest, idOf: (t: number) => string) {
  for (const t of m.topics) {
    for (const campaignId of new Set([...t.campaign_ids, ...(t.campaign_id ? [t.campaign_id] : [])])) {
      await tx.query(
        `INSERT INTO genomics_topic_campaigns (topic_id, campaign_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [idOf(t.topic), campaignId],
      );
    }
    if (t.client_ids.length > 0) {
      await tx.query(
        `INSERT INTO genomics_topic_clients (topic_id, client_id)
         SELECT $1, c.id FROM genomics_clients c WHERE c.source_id = ANY($2::text[]) ON CONFLICT DO NOTHING`,
        [idOf(t.topic), t.client_ids],
      );
    }
  }
}

/**
 * A bundle revision updates the revision it imported before; otherwise it completes the topic's
 * IN_PROGRESS revision for the same campaign (one started through the API), or is added as a new one.
 */
async function upsertRevision(
  tx: EntityManager,
  topicId: string,
  r: GenomicsBundleManifest['revisions'][number],
  f: StoredGenomicsFile,
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

async function writeImportEvents(
  tx: EntityManager,
  m: GenomicsBundleManifest,
  idOf: (t: number) => string,
  created: Set<number>,
): Promise<number> {
  const perTopic = new Map<
    number,
    { measurements: number; reports: number; revisions: number; publications: number }
  >();
  const bump = (topic: number, field: 'measurements' | 'reports' | 'revisions' | 'publications') => {
    const entry = perTopic.get(topic) ?? { measurements: 0, reports: 0, revisions: 0, publications: 0 };
    entry[field] += 1;
    perTopic.set(topic, entry);
  };
  m.topics.forEach((t) =>
    perTopic.set(t.topic, { measurements: 0, reports: 0, revisions: 0, publications: 0 }),
  );
  m.measurements.forEach((x) => bump(x.topic, 'measurements'));
  m.reports.forEach((x) => bump(x.topic, 'reports'));
  m.revisions.forEach((x) => bump(x.topic, 'revisions'));
  m.publications.forEach((x) => bump(x.topic, 'publications'));
  for (const [topic, detail] of perTopic) {
    await tx.query(`INSERT INTO genomics_events (topic_id, kind, detail) VALUES ($1, 'imported', $2)`, [
      idOf(topic),
      JSON.stringify({ bundle_id: m.bundle.bundle_id, topic_created: created.has(topic), ...detail }),
    ]);
  }
  return perTopic.size;
}
