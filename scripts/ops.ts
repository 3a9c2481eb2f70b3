import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
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
} from '../activities/bundles/common';
import { GENOMICS_BUNDLE_FORMAT, validateGenomicsBundle } from '../activities/bundles/genomicsBundle';
import { validateMathBundle } from '../activities/bundles/mathBundle';
import { unknownReferenceProblems } from '../activities/genomicsImport';
import { insertApiKey } from '../api/shared/keys';
import { memberSyncFileSchema, syncMembers } from '../api/shared/members';
import { type Config, loadConfig } from '../config';
import { connectAndMigrate, createDataSource } from '../entities/dataSource';
import { ROLES, type Role, SCOPES, type Scope, SERVICES, type ServiceName } from '../entities/types';
import { type ImportProgress, importProgressQuery } from '../workflows/importCommon';
import { type ImportMathRunResult, importMathRunWorkflowId } from '../workflows/importMathRun/messages';
import {
  type ImportGenomicsBundleResult,
  importGenomicsBundleWorkflowId,
} from '../workflows/importGenomicsBundle/messages';

const USAGE = `Usage: npm run ops -- <command> [options]

Commands:
  migrate                              Bring the database schema up to date.
  members sync <file>                  Load member projections (JSON: {"math": [...], "genomics": [...]}).
  keys create --service <math|genomics> --member <identity_id>
              [--name <name>] [--role <REVIEWER|OWNER|ADMIN>] [--scopes a,b,...] [--expires-in-days <1-365>]
                                       Mint an API key; the token is printed once.
  import <bundle-dir> [--detach]       Import a math run or genomics bundle (by the manifest's "format")
                                       through its Temporal import workflow.

Options:
  --json                               Machine-readable output on stdout.`;

class UsageError extends Error {}

interface Output {
  json: boolean;
  print(human: string, data: unknown): void;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      detach: { type: 'boolean', default: false },
      service: { type: 'string' },
      member: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return;
  }
  const out: Output = {
    json: values.json ?? false,
    print(human, data) {
      console.log(this.json ? JSON.stringify(data) : human);
    },
  };
  const config = loadConfig();
  const [command, sub, arg] = positionals;
  if (command === 'migrate') return migrate(config, out);
  if (command === 'members' && sub === 'sync' && arg) return membersSync(config, out, arg);
  if (command === 'keys' && sub === 'create') {
    return keysCreate(config, out, {
      service: values.service,
      member: values.member,
      name: values.name,
      role: values.role,
      scopes: values.scopes,
      expiresInDays: values['expires-in-days'],
    });
  }
  if (command === 'import' && sub) return importBundle(config, out, sub, values.detach ?? false);
  throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
}

async function migrate(config: Config, out: Output): Promise<void> {
  const dataSource = await connectAndMigrate(config.databaseUrl, 2);
  await dataSource.destroy();
  out.print('Schema is up to date.', { ok: true });
}

async function membersSync(config: Config, out: Output, file: string): Promise<void> {
  const { value, error } = memberSyncFileSchema.validate(JSON.parse(await readFile(file, 'utf8')), {
    abortEarly: false,
  });
  if (error) throw new UsageError(`${file}: ${error.message}`);
  const dataSource = await connectAndMigrate(config.databaseUrl, 2);
  try {
    const summaries = await syncMembers(dataSource, value);
    out.print(
      summaries
        .map(
          (s) =>
            `${s.service}: ${s.created} created, ${s.updated} updated, ${s.disabled} disabled, ${s.unchanged} unchanged`,
        )
        .join('\n'),
      { summaries },
    );
  } finally {
    await dataSource.destroy();
  }
}

async function keysCreate(
  config: Config,
  out: Output,
  opts: {
    service?: string;
    member?: string;
    name?: string;
    role?: string;
    scopes?: string;
    expiresInDays?: string;
  },
): Promise<void> {
  if (!opts.service || !SERVICES.includes(opts.service as ServiceName))
    throw new UsageError('--service must be math or genomics');
  if (!opts.member) throw new UsageError('--member <identity_id> is required');
  const service = opts.service as ServiceName;
  const days = Number(opts.expiresInDays ?? 90);
  if (!Number.isInteger(days) || days < 1 || days > 365)
    throw new UsageError('--expires-in-days must be 1 to 365');
  if (opts.role && !ROLES.includes(opts.role as Role))
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  const scopes = (opts.scopes ? opts.scopes.split(',') : [...SCOPES]) as Scope[];
  const unknownScope = scopes.find((s) => !SCOPES.includes(s));
  if (unknownScope) throw new UsageError(`unknown scope ${unknownScope}`);

  const dataSource = await connectAndMigrate(config.databaseUrl, 2);
  try {
    const created = await dataSource.transaction(async (tx) => {
      const [member]: Array<{ id: string; role: Role; enabled: boolean }> = await tx.query(
        'SELECT id::text, role, enabled FROM members WHERE service = $1 AND identity_id = $2',
        [service, opts.member],
      );
      if (!member)
        throw new UsageError(`no ${service} member with identity ${opts.member}; run "members sync" first`);
      if (!member.enabled) throw new UsageError(`member ${opts.member} is disabled`);
      const role = (opts.role as Role | undefined) ?? member.role;
      if (ROLES.indexOf(role) > ROLES.indexOf(member.role))
        throw new UsageError(`role ${role} exceeds the member's ${member.role}`);
      return insertApiKey(tx, {
        service,
        memberId: member.id,
        name: opts.name ?? `ops key for ${opts.member}`,
        role,
        scopes,
        expiresAt: new Date(Date.now() + days * 86_400_000),
        createdByKeyId: null,
        issuer: 'ops',
      });
    });
    out.print(
      `Created ${service} key ${created.id} (${created.role}; ${created.scopes.join(', ')}; expires ${created.expiresAt.toISOString()}).\n` +
        `Token (shown once, store it now):\n${created.token}`,
      {
        id: created.id,
        token: created.token,
        role: created.role,
        scopes: created.scopes,
        expires_at: created.expiresAt,
      },
    );
  } finally {
    await dataSource.destroy();
  }
}

/** A bundle refused before anything was written, or an import that failed: exit code 1 with every problem. */
class ImportFailed extends Error {
  constructor(
    message: string,
    readonly problems: BundleProblem[],
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The import workflow a bundle goes to, found from its manifest after it passed every check. */
interface PreparedImport {
  workflowType: 'importMathRunWorkflow' | 'importGenomicsBundleWorkflow';
  workflowId: string;
  summary(result: ImportMathRunResult | ImportGenomicsBundleResult): string;
}

/**
 * Checks a bundle the way the import's planning activity will (schema, references, every file's size and
 * SHA-256), so a broken bundle is refused with all its problems before any workflow starts.
 */
async function prepareImport(config: Config, bundleDir: string): Promise<PreparedImport> {
  if ((await readBundleFormat(bundleDir)) === GENOMICS_BUNDLE_FORMAT) {
    // Topics and campaigns the bundle only refers to must exist in the workspace: checked with the rest.
    const dataSource = createDataSource(config.databaseUrl, 1);
    await dataSource.initialize();
    const { manifest } = await validateGenomicsBundle(bundleDir, (m) =>
      unknownReferenceProblems(dataSource, m),
    ).finally(() => dataSource.destroy());
    return {
      workflowType: 'importGenomicsBundleWorkflow',
      workflowId: importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id),
      summary: (r) => {
        const result = r as ImportGenomicsBundleResult;
        return result.unchanged
          ? `Bundle ${result.bundleId} is unchanged; nothing to import.`
          : `Imported bundle ${result.bundleId}: ${result.topics} topics (${result.topicsCreated} new), ` +
              `${result.measurements} measurements, ${result.reports} reports, ${result.revisions} revisions, ` +
              `${result.publications} publications, ${result.filesTotal} files (${result.filesUploaded} uploaded, ` +
              `${formatBytes(result.bytesUploaded)}).`;
      },
    };
  }
  const bundle = await validateMathBundle(bundleDir);
  return {
    workflowType: 'importMathRunWorkflow',
    workflowId: importMathRunWorkflowId(bundle.manifest.run.run_id),
    summary: (r) => {
      const result = r as ImportMathRunResult;
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
    },
  };
}

async function importBundle(config: Config, out: Output, bundleArg: string, detach: boolean): Promise<void> {
  const bundleDir = resolve(bundleArg);
  if (!out.json) process.stderr.write(`Checking ${bundleDir}…\n`);
  let prepared: PreparedImport;
  try {
    prepared = await prepareImport(config, bundleDir);
  } catch (error) {
    if (error instanceof InvalidBundleError) {
      throw new ImportFailed(
        `bundle ${bundleDir} refused: ${error.problems.length} problems`,
        error.problems,
      );
    }
    throw error;
  }
  const { workflowId } = prepared;
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const handle = await client.workflow.start(prepared.workflowType, {
      workflowId,
      taskQueue: config.temporal.taskQueue,
      args: [{ bundleDir }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    if (detach) {
      out.print(`Import started: workflow ${workflowId} (run ${handle.firstExecutionRunId}).`, {
        workflowId,
        runId: handle.firstExecutionRunId,
      });
      return;
    }
    const stopProgress = out.json ? () => undefined : showProgress(() => handle.query(importProgressQuery));
    try {
      const result = (await handle.result()) as ImportMathRunResult | ImportGenomicsBundleResult;
      stopProgress(result);
      out.print(prepared.summary(result), { workflowId, ...result });
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
      ? `bundle refused by import ${workflowId}: ${details?.total ?? problems.length} problems`
      : `import ${workflowId} failed (${cause.type ?? 'error'}): ${cause.message}`;
  return new ImportFailed(message, problems, { workflowId, type: cause.type ?? null });
}

/**
 * Polls the import's progress query and draws it on stderr: a bar on a terminal, otherwise a line per phase
 * and per tenth of the files. Returns the function that stops it (drawing the final state when given).
 */
function showProgress(query: () => Promise<ImportProgress>): (final?: ImportProgress) => void {
  const tty = process.stderr.isTTY;
  let lastPhase = '';
  let lastStep = -1;
  let drawn = false;
  const draw = (p: ImportProgress) => {
    const fraction = p.filesTotal > 0 ? p.filesStored / p.filesTotal : p.phase === 'done' ? 1 : 0;
    const records = Object.entries(p.records)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ');
    const line =
      `${p.phase}${p.subject ? ` ${p.subject}` : ''}: ${p.filesStored}/${p.filesTotal} files stored ` +
      `(${p.filesUploaded} uploaded, ${formatBytes(p.bytesUploaded)})${records ? `; ${records}` : ''}`;
    if (tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      const percent = String(Math.floor(fraction * 100)).padStart(3);
      process.stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${line}\x1b[K`,
      );
      drawn = true;
      return;
    }
    const step = Math.floor(fraction * 10);
    if (p.phase === lastPhase && step === lastStep) return;
    lastPhase = p.phase;
    lastStep = step;
    process.stderr.write(`${line}\n`);
  };
  const timer = setInterval(() => {
    query()
      .then(draw)
      .catch(() => undefined);
  }, 500);
  return (final) => {
    clearInterval(timer);
    if (final) draw(final);
    if (tty && drawn) process.stderr.write('\n');
  };
}

const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`ops: ${error.message}\n\n${USAGE}`);
        process.exit(2);
      }
      if (error instanceof ImportFailed) {
        if (process.argv.includes('--json')) {
          console.log(
            JSON.stringify({ ok: false, error: error.message, ...error.detail, problems: error.problems }),
          );
        } else {
          console.error(`ops: ${error.message}`);
          for (const p of error.problems) console.error(`  ${describeProblem(p)}`);
        }
        process.exit(1);
      }
      console.error(`ops: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
