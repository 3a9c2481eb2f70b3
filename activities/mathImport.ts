import type { S3Client } from '@aws-sdk/client-s3';
import type { DataSource } from 'typeorm';
import {
  type MathBundleArtifact,
  type MathBundleCounts,
  openMathBundle,
  recordBatches,
  type ValidatedMathBundle,
  validateMathBundle,
} from './bundles/mathBundle';
import {
  bundleChanged,
  finalTransaction,
  orInvalidBundleFailure,
  planImport,
  type PlannedFiles,
  withHeartbeat,
} from './importCommon';
import { completeImport, type FinishedImport, type PlannedFile } from './importQueries';
import { type MathRunChanges, none, previousRunDigest, upsertRun } from './mathImportQueries';

export type { MathRunChanges, RowChanges } from './mathImportQueries';

export interface MathBundlePlan {
  importId: string;
  runId: string;
  /** The bundle's digest equals the run's last import: nothing to upload or write. */
  unchanged: boolean;
  filesTotal: number;
  /** Upload activities take ranges of this many files. */
  chunkSize: number;
  counts: MathBundleCounts;
}

export interface UpsertMathRunResult {
  runId: string;
  unchanged: boolean;
  counts: MathBundleCounts;
  changes: MathRunChanges;
  filesUploaded: number;
  bytesUploaded: number;
}

/** Activities of the math import: plan (validate, hash, stage) and the final upsert. Uploads are shared. */
export function mathImportActivities(deps: { dataSource: DataSource; s3: S3Client; bucket: string }) {
  const { dataSource } = deps;

  return {
    /**
     * Validates the bundle (schema, references, every file's size and SHA-256), then records the import and
     * stages its files. Returns counts and the chunk size only: the file list stays in the staging table.
     */
    async planMathImport(bundleDir: string): Promise<MathBundlePlan> {
      const bundle = await withHeartbeat(() => orInvalidBundleFailure(() => validateMathBundle(bundleDir)));
      const runId = bundle.manifest.run.run_id;
      const plan = await planImport(dataSource, {
        service: 'math',
        subjectId: runId,
        bundleDir,
        bundle,
        previousDigest: await previousRunDigest(dataSource, runId),
        files: artifactFiles(bundleDir, bundle),
      });
      return { ...plan, runId, counts: bundle.counts };
    },

    /**
     * Writes the run in one transaction from the bundle and the staged receipts, in set-based batches:
     * clients (created when missing), topics, artifacts, reports, tasks and evidence. Only imported fields
     * change, and only where they differ: review state, versions, assignments, notes, attachments and a
     * task's client link (set when the import creates the task, never after) belong to the service.
     */
    async upsertMathRun(input: { importId: string }): Promise<UpsertMathRunResult> {
      return finalTransaction(dataSource, input.importId, {
        open: openMathBundle,
        recorded: recordedResult,
        async write(tx, running, { manifest }) {
          const runId = manifest.run.run_id;
          const counts = running.counts as unknown as MathBundleCounts;
          if ((await previousRunDigest(tx, runId, true)) === running.bundleSha256) {
            const files = await completeImport(tx, input.importId, 'UNCHANGED', { ...counts });
            return { runId, unchanged: true, counts, changes: noChanges(), ...files };
          }
          const changes = await upsertRun(
            tx,
            running.bundleDir,
            manifest,
            running.bundleSha256,
            input.importId,
          );
          const summary = { ...counts, ...flatChanges(changes) };
          const files = await completeImport(tx, input.importId, 'SUCCEEDED', summary);
          return { runId, unchanged: false, counts, changes, ...files };
        },
      });
    },
  };
}

/**
 * The bundle's artifacts as files to stage, read again in order (a large run's are a JSONL file, never held whole)
 * with the digests validation measured. An artifact validation did not see means the bundle changed since.
 */
const artifactFiles = (bundleDir: string, bundle: ValidatedMathBundle): PlannedFiles => ({
  count: bundle.counts.artifacts,
  async *batches(size) {
    for await (const batch of recordBatches<MathBundleArtifact>(
      bundleDir,
      bundle.manifest,
      'artifacts',
      size,
    ))
      yield batch.map((a): PlannedFile => {
        const digest = bundle.files.get(a.path);
        if (!digest) throw bundleChanged(bundleDir);
        return { key: a.artifact_id, path: a.path, mediaType: a.media_type, ...digest };
      });
  },
});

type Changes = MathRunChanges;

const noChanges = (): Changes => ({
  clients: none(),
  topics: none(),
  artifacts: none(),
  reports: none(),
  tasks: none(),
  evidence: none(),
  evidenceRemoved: 0,
});

/** Changes as flat counts (`tasks_inserted`, …) for the import record. */
const flatChanges = (changes: Changes): Record<string, number> =>
  Object.fromEntries(
    Object.entries(changes).flatMap(([key, value]) =>
      typeof value === 'number'
        ? [[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]]
        : [
            [`${key}_inserted`, value.inserted],
            [`${key}_updated`, value.updated],
          ],
    ),
  );

/** What a retried final activity answers once its transaction committed. */
function recordedResult(row: FinishedImport): UpsertMathRunResult {
  const c = row.counts;
  const changes = noChanges();
  for (const key of Object.keys(changes) as Array<keyof Changes>) {
    if (key === 'evidenceRemoved') changes.evidenceRemoved = c.evidence_removed ?? 0;
    else changes[key] = { inserted: c[`${key}_inserted`] ?? 0, updated: c[`${key}_updated`] ?? 0 };
  }
  return {
    runId: row.subjectId,
    unchanged: row.status === 'UNCHANGED',
    counts: {
      clients: c.clients,
      topics: c.topics,
      artifacts: c.artifacts,
      reports: c.reports,
      tasks: c.tasks,
      evidence: c.evidence,
    },
    changes,
    filesUploaded: row.filesUploaded,
    bytesUploaded: row.bytesUploaded,
  };
}
