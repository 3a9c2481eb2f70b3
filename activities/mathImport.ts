import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import { digestFile, putFileContentAddressed } from '../storage/objectStore';
import { InvalidBundleError, type MathBundleManifest, readMathBundle } from './bundles/mathBundle';

export interface MathBundlePlan {
  runId: string;
  manifestSha256: string;
  artifacts: Array<{ artifactId: string; path: string; mediaType: string; expectedSha256: string | null }>;
  taskCount: number;
}

export interface StoredArtifact {
  artifactId: string;
  objectKey: string;
  sha256: string;
  sizeBytes: number;
  uploaded: boolean;
}

export interface UpsertMathRunResult {
  runId: string;
  unchanged: boolean;
  tasks: number;
  reports: number;
  artifacts: number;
}

/** Activities of the math import: read the bundle, upload its files, upsert its records. */
export function mathImportActivities(deps: { dataSource: DataSource; s3: S3Client; bucket: string }) {
  const { dataSource, s3, bucket } = deps;

  return {
    async planMathImport(bundleDir: string): Promise<MathBundlePlan> {
      const { manifest, sha256 } = await readBundleOrFail(bundleDir);
      return {
        runId: manifest.run.run_id,
        manifestSha256: sha256,
        artifacts: manifest.artifacts.map((a) => ({
          artifactId: a.artifact_id,
          path: a.path,
          mediaType: a.media_type,
          expectedSha256: a.sha256 ?? null,
        })),
        taskCount: manifest.tasks.length,
      };
    },

    /** Hashes the file, checks it against the bundle's own checksum, then stores it content-addressed. */
    async storeMathArtifact(input: {
      bundleDir: string;
      artifactId: string;
      path: string;
      mediaType: string;
      expectedSha256: string | null;
    }): Promise<StoredArtifact> {
      const file = join(input.bundleDir, input.path);
      const digest = await digestFile(file);
      if (input.expectedSha256 && input.expectedSha256 !== digest.sha256) {
        throw ApplicationFailure.nonRetryable(
          `Artifact ${input.artifactId} (${input.path}) has SHA-256 ${digest.sha256}, the bundle says ${input.expectedSha256}`,
          'checksum_mismatch',
        );
      }
      const { key, uploaded } = await putFileContentAddressed(s3, bucket, file, digest, input.mediaType);
      return {
        artifactId: input.artifactId,
        objectKey: key,
        sha256: digest.sha256,
        sizeBytes: digest.sizeBytes,
        uploaded,
      };
    },

    /**
     * Upserts run, topics, artifacts, reports and tasks in one transaction. Re-imports update imported
     * fields only: review state, versions, assignments and clients belong to the task workflows.
     */
    async upsertMathRun(input: {
      bundleDir: string;
      stored: StoredArtifact[];
    }): Promise<UpsertMathRunResult> {
      const { manifest, sha256 } = await readBundleOrFail(input.bundleDir);
      const stored = new Map(input.stored.map((s) => [s.artifactId, s]));
      const runId = manifest.run.run_id;
      return dataSource.transaction(async (tx) => {
        const previous: Array<{ bundle_sha256: string }> = await tx.query(
          'SELECT bundle_sha256 FROM math_runs WHERE run_id = $1 FOR UPDATE',
          [runId],
        );
        const counts = {
          tasks: manifest.tasks.length,
          reports: manifest.reports.length,
          artifacts: manifest.artifacts.length,
        };
        if (previous[0]?.bundle_sha256 === sha256) return { runId, unchanged: true, ...counts };

        const r = manifest.run;
        await tx.query(
          `INSERT INTO math_runs (run_id, title, source, started_at, completed_at, bundle_sha256, imported_at)
           VALUES ($1, $2, $3, $4, $5, $6, now())
           ON CONFLICT (run_id) DO UPDATE SET title = EXCLUDED.title, source = EXCLUDED.source,
             started_at = EXCLUDED.started_at, completed_at = EXCLUDED.completed_at,
             bundle_sha256 = EXCLUDED.bundle_sha256, imported_at = now()`,
          [runId, r.title, r.source ?? null, r.started_at ?? null, r.completed_at ?? null, sha256],
        );
        await tx.query(
          `INSERT INTO math_topics (topic_id, title, latest_run_id, updated_at)
           SELECT t.topic_id, t.title, $1, now() FROM unnest($2::text[], $3::text[]) AS t(topic_id, title)
           ON CONFLICT (topic_id) DO UPDATE SET title = EXCLUDED.title, latest_run_id = EXCLUDED.latest_run_id,
             updated_at = now()`,
          [runId, manifest.topics.map((t) => t.topic_id), manifest.topics.map((t) => t.title)],
        );
        const artifacts = manifest.artifacts.map((a) => {
          const s = stored.get(a.artifact_id);
          if (!s)
            throw ApplicationFailure.nonRetryable(
              `Artifact ${a.artifact_id} was not stored`,
              'artifact_missing',
            );
          return { ...a, s };
        });
        await tx.query(
          `INSERT INTO math_artifacts (artifact_id, run_id, kind, class, source_path, filename, media_type, object_key,
             size_bytes, sha256, imported_at)
           SELECT a.id, $1, a.kind, a.class, a.path, regexp_replace(a.path, '^.*/', ''), a.media_type, a.object_key,
             a.size_bytes, a.sha256, now()
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[])
               AS a(id, kind, class, path, media_type, object_key, size_bytes, sha256)
           ON CONFLICT (artifact_id) DO UPDATE SET kind = EXCLUDED.kind, class = EXCLUDED.class,
             source_path = EXCLUDED.source_path, filename = EXCLUDED.filename, media_type = EXCLUDED.media_type,
             object_key = EXCLUDED.object_key, size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256,
             imported_at = now()`,
          [
            runId,
            artifacts.map((a) => a.artifact_id),
            artifacts.map((a) => a.kind),
            artifacts.map((a) => a.class),
            artifacts.map((a) => a.path),
            artifacts.map((a) => a.media_type),
            artifacts.map((a) => a.s.objectKey),
            artifacts.map((a) => a.s.sizeBytes),
            artifacts.map((a) => a.s.sha256),
          ],
        );
        await tx.query(
          `INSERT INTO math_reports (report_id, run_id, artifact_id, source_id)
           SELECT r.id, $1, r.artifact_id, r.source_id FROM unnest($2::text[], $3::text[], $4::text[])
             AS r(id, artifact_id, source_id)
           ON CONFLICT (report_id) DO UPDATE SET artifact_id = EXCLUDED.artifact_id, source_id = EXCLUDED.source_id`,
          [
            runId,
            manifest.reports.map((x) => x.report_id),
            manifest.reports.map((x) => x.artifact_id),
            manifest.reports.map((x) => x.source_id ?? null),
          ],
        );
        const t = manifest.tasks;
        await tx.query(
          `INSERT INTO math_tasks (task_id, run_id, topic_id, question_id, title, problem, report_id, imported_at)
           SELECT x.task_id, $1, x.topic_id, x.question_id, x.title, x.problem, x.report_id, now()
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
               AS x(task_id, topic_id, question_id, title, problem, report_id)
           ON CONFLICT (task_id) DO UPDATE SET run_id = EXCLUDED.run_id, topic_id = EXCLUDED.topic_id,
             question_id = EXCLUDED.question_id, title = EXCLUDED.title, problem = EXCLUDED.problem,
             report_id = EXCLUDED.report_id, imported_at = now()`,
          [
            runId,
            t.map((x) => x.task_id),
            t.map((x) => x.topic_id),
            t.map((x) => x.question_id),
            t.map((x) => x.title),
            t.map((x) => x.problem),
            t.map((x) => x.report_id),
          ],
        );
        await replaceTaskEvidence(tx, runId, manifest);
        return { runId, unchanged: false, ...counts };
      });
    },
  };
}

/** The bundle's evidence replaces whatever its tasks had: a task without an entry now has none. */
async function replaceTaskEvidence(
  tx: EntityManager,
  runId: string,
  manifest: MathBundleManifest,
): Promise<void> {
  const evidence = manifest.evidence ?? [];
  await tx.query('DELETE FROM math_task_evidence WHERE task_id = ANY($1::text[])', [
    manifest.tasks.map((t) => t.task_id),
  ]);
  if (evidence.length === 0) return;
  const json = (value: Record<string, unknown> | null | undefined) => (value ? JSON.stringify(value) : null);
  await tx.query(
    `INSERT INTO math_task_evidence (task_id, run_id, report_id, rubric, review, quality_gate, imported_at)
     SELECT e.task_id, $1, e.report_id, e.rubric, e.review, e.quality_gate, now()
       FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[])
         AS e(task_id, report_id, rubric, review, quality_gate)`,
    [
      runId,
      evidence.map((e) => e.task_id),
      evidence.map((e) => e.report_id),
      evidence.map((e) => json(e.rubric)),
      evidence.map((e) => json(e.review)),
      evidence.map((e) => json(e.quality_gate)),
    ],
  );
}

async function readBundleOrFail(bundleDir: string) {
  try {
    return await readMathBundle(bundleDir);
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
