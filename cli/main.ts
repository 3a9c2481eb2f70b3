import { parseArgs } from 'node:util';
import { createContext } from './kernel/context';
import { createOutput, OpsError, type Output, UsageError } from './kernel/output';
import { USAGE } from './kernel/help';

/*
 * The ops CLI (`referee`, `npm run ops --`). Each command group lives in its own module, imported only when
 * that command runs: `--help` loads none of TypeORM, the Temporal client or the bundle validators.
 */

const OPTIONS = {
  json: { type: 'boolean', default: false },
  detach: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  service: { type: 'string' },
  member: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  scopes: { type: 'string' },
  'expires-in-days': { type: 'string' },
  repair: { type: 'boolean' },
  restart: { type: 'boolean' },
  rate: { type: 'string' },
  'orphan-grace': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  'grace-hours': { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // parseArgs reports unknown options and missing values as TypeErrors with an ERR_PARSE_ARGS_* code.
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError((error as Error).message);
    }
    throw error;
  }
}

const COMMANDS = [
  'migrate',
  'members',
  'keys',
  'webhooks',
  'import',
  'reconcile',
  'verify-storage',
  'status',
];

async function run(argv: string[], out: Output): Promise<void> {
  const { values, positionals } = parse(argv);
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const ctx = createContext(out);
  const [command, sub, arg, ...extra] = positionals;
  const noMore = (used: number) => {
    if (positionals.length > used) {
      throw new UsageError(
        `unexpected argument "${positionals[used]}" after "${positionals.slice(0, used).join(' ')}"`,
      );
    }
  };
  switch (command) {
    case 'migrate': {
      noMore(1);
      const { migrate } = await import('./handlers/migrate');
      return migrate(ctx);
    }
    case 'members': {
      const members = await import('./handlers/members');
      if (sub === 'list') return (noMore(2), members.membersList(ctx, values.service));
      if (sub === 'sync' || sub === 'upsert') {
        noMore(3);
        if (sub === 'upsert' && values['dry-run']) {
          // An upsert's dry run is a sync's without the disabling; one flag, one meaning.
          throw new UsageError('--dry-run goes with "members sync"');
        }
        return members.membersApply(ctx, sub, arg, values['dry-run']);
      }
      throw new UsageError(sub ? `unknown members command "${sub}"` : 'members needs list, upsert or sync');
    }
    case 'keys': {
      const keys = await import('./handlers/keys');
      if (sub === 'create') {
        noMore(2);
        return keys.keysCreate(ctx, {
          service: values.service,
          member: values.member,
          name: values.name,
          role: values.role,
          scopes: values.scopes,
          expiresInDays: values['expires-in-days'],
        });
      }
      if (sub === 'list') return (noMore(2), keys.keysList(ctx, values.service));
      if (sub === 'revoke') return (noMore(3), keys.keysRevoke(ctx, arg));
      throw new UsageError(sub ? `unknown keys command "${sub}"` : 'keys needs create, list or revoke');
    }
    case 'webhooks': {
      const { webhooksCommand } = await import('./handlers/webhooks');
      return webhooksCommand(ctx, sub, positionals.slice(2), values);
    }
    case 'import': {
      noMore(2);
      const { importBundle } = await import('./handlers/importBundle');
      return importBundle(ctx, sub, values.detach);
    }
    case 'reconcile':
      return (noMore(1), (await import('./handlers/operator')).reconcileCommand(ctx, values));
    case 'verify-storage':
      return (noMore(1), (await import('./handlers/operator')).verifyStorageCommand(ctx, values));
    case 'status':
      return (noMore(1), (await import('./handlers/operator')).status(ctx));
    default:
      void extra;
      throw new UsageError(`unknown command "${command}"; commands are ${COMMANDS.join(', ')}`);
  }
}

/** Reports a failure: human text on stderr, and with `--json` the error document on stdout. */
function report(error: unknown, out: Output): number {
  const failure =
    error instanceof OpsError
      ? error
      : new OpsError('failed', error instanceof Error ? error.message : String(error));
  process.stderr.write(`referee: ${failure.message}\n`);
  const problems = (failure.detail.problems ?? []) as unknown[];
  if (problems.length > 0 && 'describe' in failure && typeof failure.describe === 'function') {
    for (const line of failure.describe() as string[]) process.stderr.write(`  ${line}\n`);
  }
  if (failure instanceof UsageError)
    process.stderr.write('Run "referee --help" for the commands and options.\n');
  if (out.json) {
    process.stdout.write(
      `${JSON.stringify({ ok: false, error: { code: failure.code, message: failure.message, ...failure.detail } })}\n`,
    );
  }
  return failure.exitCode;
}

export async function main(argv: string[]): Promise<number> {
  const out = createOutput(argv.includes('--json'));
  try {
    await run(argv, out);
    return 0;
  } catch (error) {
    return report(error, out);
  }
}

if (require.main === module) {
  // Exit at once: stdout is synchronous on files and pipes, and nothing (a pool, a timer) may keep us alive.
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
