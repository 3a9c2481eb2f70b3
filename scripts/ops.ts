import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import {
  GENOMICS_BUNDLE_FORMAT,
  readBundleFormat,
  readGenomicsBundle,
} from '../activities/bundles/genomicsBundle';
import { readMathBundle } from '../activities/bundles/mathBundle';
import { insertApiKey } from '../api/shared/keys';
import { memberSyncFileSchema, syncMembers } from '../api/shared/members';
import { type Config, loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import { ROLES, type Role, SCOPES, type Scope, SERVICES, type ServiceName } from '../entities/types';
import {
  type ImportMathRunResult,
  type ImportProgress,
  importMathRunWorkflowId,
  importProgressQuery,
} from '../workflows/importMathRun/messages';
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

async function importBundle(config: Config, out: Output, bundleArg: string, detach: boolean): Promise<void> {
  const bundleDir = resolve(bundleArg);
  if ((await readBundleFormat(bundleDir)) === GENOMICS_BUNDLE_FORMAT) {
    return importGenomicsBundle(config, out, bundleDir, detach);
  }
  const { manifest } = await readMathBundle(bundleDir);
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const workflowId = importMathRunWorkflowId(manifest.run.run_id);
    const handle = await client.workflow.start('importMathRunWorkflow', {
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
    const showProgress = !out.json;
    const bar = process.stderr.isTTY;
    let last = '';
    const timer = setInterval(() => {
      handle
        .query(importProgressQuery)
        .then((p: ImportProgress) => {
          const line = `${p.phase}: ${p.artifactsStored}/${p.artifactsTotal} artifacts, ${p.tasks} tasks`;
          if (!showProgress || line === last) return;
          last = line;
          if (bar) {
            const width = 30;
            const filled = p.artifactsTotal ? Math.round((p.artifactsStored / p.artifactsTotal) * width) : 0;
            process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line}   `);
          } else {
            process.stderr.write(`${line}\n`);
          }
        })
        .catch(() => undefined);
    }, 500);
    try {
      const result: ImportMathRunResult = await handle.result();
      if (bar && showProgress) process.stderr.write('\n');
      out.print(
        result.unchanged
          ? `Run ${result.runId} is unchanged; nothing to import.`
          : `Imported run ${result.runId}: ${result.tasks} tasks, ${result.artifactsTotal} artifacts (${result.bytesUploaded} bytes uploaded).`,
        { workflowId, ...result },
      );
    } finally {
      clearInterval(timer);
    }
  } finally {
    await connection.close();
  }
}

/** A genomics bundle (docs/bundles/genomics.md) through its import workflow, one per batch and bundle id. */
async function importGenomicsBundle(config: Config, out: Output, bundleDir: string, detach: boolean) {
  const { manifest } = await readGenomicsBundle(bundleDir);
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const workflowId = importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id);
    const handle = await client.workflow.start('importGenomicsBundleWorkflow', {
      workflowId,
      taskQueue: config.temporal.taskQueue,
      args: [{ bundleDir }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    if (detach) {
      out.print(`Import started: workflow ${workflowId}.`, { workflowId, runId: handle.firstExecutionRunId });
      return;
    }
    const result: ImportGenomicsBundleResult = await handle.result();
    out.print(
      result.unchanged
        ? `Bundle ${result.bundleId} is unchanged; nothing to import.`
        : `Imported bundle ${result.bundleId}: ${result.topics} topics (${result.topicsCreated} new), ` +
            `${result.measurements} measurements, ${result.reports} reports, ${result.revisions} revisions, ` +
            `${result.publications} publications, ${result.filesTotal} files (${result.bytesUploaded} bytes uploaded).`,
      { workflowId, ...result },
    );
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(`ops: ${error.message}\n\n${USAGE}`);
        process.exit(2);
      }
      console.error(`ops: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
