import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  ApplicationFailure,
  Client,
  Connection,
  TemporalFailure,
  WorkflowFailedError,
} from '@temporalio/client';
import {
  type BundleProblem,
  describeProblem,
  InvalidBundleError,
  readBundleFormat,
} from '../../activities/bundles/common';
import {
  GENOMICS_BUNDLE_FORMAT,
  unknownReferenceProblems,
  validateGenomicsBundle,
} from '../../activities/bundles/genomicsBundle';
import { validateMathBundle } from '../../activities/bundles/mathBundle';
import type { Config } from '../../config';
import { queryImportProgress } from '../operator/workflowQueries';
import {
  type ImportGenomicsBundleResult,
  importGenomicsBundleWorkflowId,
} from '../../workflows/importGenomicsBundle/messages';
import { type ImportMathRunResult, importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import type * as declared from '../commands/import';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError, plural } from '../kernel/output';
import { finalProgressOf, formatBytes, showProgress } from './progress';

/** A bundle refused before anything was written, or an import that failed: exit code 1 with every problem. */
export class ImportFailed extends OpsError {
  constructor(message: string, problems: BundleProblem[], detail: Record<string, unknown> = {}) {
    super('import_failed', message, { ...detail, problems });
    this.problems = problems;
  }
  readonly problems: BundleProblem[];
  /** The human listing of the problems, for stderr. */
  describe(): string[] {
    return this.problems.map((p) => describeProblem(p));
  }
}

/** The import workflow a bundle goes to, found from its manifest after it passed every check. */
interface PreparedImport {
  workflowType: 'importMathRunWorkflow' | 'importGenomicsBundleWorkflow';
  workflowId: string;
  summary(result: ImportMathRunResult | ImportGenomicsBundleResult): string;
}

function summarizeGenomics(result: ImportGenomicsBundleResult): string {
  return result.unchanged
    ? `Bundle ${result.bundleId} is unchanged; nothing to import.`
    : `Imported bundle ${result.bundleId}: ${result.topics} topics (${result.topicsCreated} new), ` +
        `${result.measurements} measurements, ${result.reports} reports, ${result.revisions} revisions, ` +
        `${result.publications} publications, ${result.filesTotal} files (${result.filesUploaded} uploaded, ` +
        `${formatBytes(result.bytesUploaded)}).`;
}

function summarizeMath(result: ImportMathRunResult): string {
  if (result.unchanged) return `Run ${result.runId} is unchanged; nothing to import.`;
  const c = result.changes;
  const changed = c
    ? ` Rows inserted/updated: tasks ${c.tasks.inserted}/${c.tasks.updated}, topics ${c.topics.inserted}/${c.topics.updated}, ` +
      `reports ${c.reports.inserted}/${c.reports.updated}, artifacts ${c.artifacts.inserted}/${c.artifacts.updated}, ` +
      `evidence ${c.evidence.inserted}/${c.evidence.updated} (${c.evidenceRemoved} removed), clients ${c.clients.inserted} new.`
    : '';
  return (
    `Imported run ${result.runId}: ${result.tasks} tasks, ${result.filesTotal} artifacts ` +
    `(${result.filesUploaded} uploaded, ${formatBytes(result.bytesUploaded)}).${changed}`
  );
}

/** The folder must exist and hold a manifest.json: said plainly, before any check or connection. */
async function checkBundleFolder(bundleDir: string): Promise<void> {
  const kind = await stat(bundleDir).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => 'missing',
  );
  if (kind === 'missing') throw new OpsError('bundle_not_found', `bundle folder ${bundleDir} does not exist`);
  if (kind === 'file')
    throw new OpsError('bundle_not_found', `${bundleDir} is a file; import needs a bundle folder`);
  const manifest = await stat(join(bundleDir, 'manifest.json')).catch(() => null);
  if (!manifest?.isFile()) {
    throw new OpsError('bundle_not_found', `${bundleDir} has no manifest.json, so it is not a bundle folder`);
  }
}

/**
 * Checks a bundle the way the import's planning activity will (schema, references, every file's size and
 * SHA-256), so a broken bundle is refused with all its problems before any workflow starts.
 */
async function prepareImport(config: Config, bundleDir: string): Promise<PreparedImport> {
  if ((await readBundleFormat(bundleDir)) === GENOMICS_BUNDLE_FORMAT) {
    // Topics and campaigns the bundle only refers to must exist in the workspace: checked with the rest.
    const dataSource = await openDatabase(config, { migrate: false });
    const { manifest } = await validateGenomicsBundle(bundleDir, (references) =>
      unknownReferenceProblems(dataSource, references),
    ).finally(() => dataSource.destroy());
    return {
      workflowType: 'importGenomicsBundleWorkflow',
      workflowId: importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id),
      summary: (r) => summarizeGenomics(r as ImportGenomicsBundleResult),
    };
  }
  // The math import needs no reference check, but the schema must still be current before it starts.
  await (await openDatabase(config, { migrate: false })).destroy();
  const bundle = await validateMathBundle(bundleDir);
  return {
    workflowType: 'importMathRunWorkflow',
    workflowId: importMathRunWorkflowId(bundle.manifest.run.run_id),
    summary: (r) => summarizeMath(r as ImportMathRunResult),
  };
}

export async function importBundle(
  ctx: CommandContext,
  { options: { detach }, positionals }: CommandInput<typeof declared.importBundle>,
): Promise<void> {
  const bundleDir = resolve(positionals['bundle-dir']);
  await checkBundleFolder(bundleDir);
  const { config } = ctx.system({ temporal: true });
  if (!ctx.out.json) ctx.out.note(`Checking ${bundleDir}…`);
  let prepared: PreparedImport;
  try {
    prepared = await prepareImport(config, bundleDir);
  } catch (error) {
    if (error instanceof InvalidBundleError) {
      throw new ImportFailed(
        `bundle ${bundleDir} refused: ${plural(error.problems.length, 'problem')}`,
        error.problems,
      );
    }
    throw error;
  }
  const { workflowId } = prepared;
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporal.address, connectTimeout: '5 seconds' });
  } catch (error) {
    throw new OpsError(
      'temporal_unreachable',
      `cannot reach Temporal at ${config.temporal.address}: ${(error as Error).message}`,
      { dependency: 'temporal', address: config.temporal.address },
    );
  }
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const handle = await client.workflow.start(prepared.workflowType, {
      workflowId,
      taskQueue: config.temporal.taskQueue,
      args: [{ bundleDir }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    if (detach) {
      ctx.out.result(`Import started: workflow ${workflowId} (run ${handle.firstExecutionRunId}).`, {
        workflowId,
        runId: handle.firstExecutionRunId,
      });
      return;
    }
    const mode = ctx.out.json ? 'jsonl' : process.stderr.isTTY ? 'bar' : 'lines';
    const stopProgress = showProgress(() => queryImportProgress(handle), mode);
    try {
      const result = (await handle.result()) as ImportMathRunResult | ImportGenomicsBundleResult;
      // The final state from the result: an import faster than the polling interval still shows (and logs) it.
      stopProgress(finalProgressOf(result));
      ctx.out.result(prepared.summary(result), { workflowId, ...result });
    } catch (error) {
      stopProgress();
      throw importFailure(workflowId, error);
    }
  } finally {
    await connection.close();
  }
}

/** The problems and message behind a failed import workflow (its activity's ApplicationFailure). */
function importFailure(workflowId: string, error: unknown): Error {
  if (!(error instanceof WorkflowFailedError))
    return error instanceof Error ? error : new Error(String(error));
  let cause: unknown = error.cause;
  while (cause instanceof TemporalFailure && !(cause instanceof ApplicationFailure) && cause.cause)
    cause = cause.cause;
  if (!(cause instanceof ApplicationFailure))
    return new ImportFailed(`import ${workflowId} failed: ${error.message}`, []);
  const [details] = (cause.details ?? []) as Array<
    { problems?: BundleProblem[]; total?: number } | undefined
  >;
  const problems = details?.problems ?? [];
  const message =
    cause.type === 'invalid_bundle'
      ? `bundle refused by import ${workflowId}: ${plural(details?.total ?? problems.length, 'problem')}`
      : `import ${workflowId} failed (${cause.type ?? 'error'}): ${cause.message}`;
  return new ImportFailed(message, problems, { workflowId, type: cause.type ?? null });
}
