import type { AnyCommand } from './kernel/command';
import { orList, parseCommandLine } from './kernel/commandLine';
import { commandHelp, commandList, optionList } from './kernel/help';
import { createOutput, OpsError, type Output, UsageError } from './kernel/output';
import { COMMANDS, GLOBAL_OPTIONS } from './registry';

/*
 * The ops CLI (`referee`, `npm run ops --`). Each command is declared once in cli/commands/ and imports what it
 * needs only when it runs: `--help` loads none of TypeORM, the Temporal client or the bundle validators.
 */

export const USAGE = `Usage: referee <command> [options]      (or: npm run ops -- <command> [options])

Commands:
${commandList(COMMANDS)}

Options (every command):
${optionList(GLOBAL_OPTIONS)}

Run "referee <command> --help" for a command's options; docs/cli.md describes every command.
Connection: DATABASE_URL, TEMPORAL_ADDRESS (import, reconcile, status, webhook changes) and the other variables of the
environment win; what is unset is read from .referee/connection.json, written by a running "npm start"
(REFEREE_DATA_DIR moves it).
Exit codes: 0 done, 1 failed (named on stderr), 2 usage error (bad command, argument or option).`;

/** The global options as typed (`--json`, `-h`): they may come before the command's words. */
const GLOBAL_FLAGS = new Set(
  Object.entries(GLOBAL_OPTIONS).flatMap(([name, option]) => [
    `--${name}`,
    ...('short' in option ? [`-${option.short}`] : []),
  ]),
);

/** The command `argv` names, or the group its words name so far (`keys`), and the words that follow it. */
export interface Resolved {
  command?: AnyCommand;
  /** The command words read (`keys` when only the group was named). */
  words: string[];
  /** Everything but the command words: its options and positionals, for its parser. */
  rest: string[];
}

/** Reads the command's words from the start of `argv` (global flags may come first). */
export function resolveCommand(argv: readonly string[]): Resolved {
  const words: string[] = [];
  const rest: string[] = [];
  let i = 0;
  for (; i < argv.length; i += 1) {
    const token = argv[i];
    if (GLOBAL_FLAGS.has(token)) {
      rest.push(token);
      continue;
    }
    const named = [...words, token].join(' ');
    if (token.startsWith('-') || !COMMANDS.some((c) => `${c.name} `.startsWith(`${named} `))) break;
    words.push(token);
    const command = COMMANDS.find((c) => c.name === named);
    if (command) return { command, words, rest: [...rest, ...argv.slice(i + 1)] };
  }
  return { words, rest: [...rest, ...argv.slice(i)] };
}

/** The commands of a group (`keys create`, `keys list`, ... for `keys`), or every command for no words. */
const commandsUnder = (words: string[]) =>
  COMMANDS.filter((c) => `${c.name} `.startsWith(`${[...words, ''].join(' ')}`));

const nextWords = (commands: readonly AnyCommand[], depth: number) => [
  ...new Set(commands.map((c) => c.name.split(' ')[depth])),
];

/** The help `argv` asks for (the command's, a group's, or the usage text). */
export function helpFor({ command, words }: Resolved): string {
  if (command) return commandHelp(command, `referee ${command.name}`, GLOBAL_OPTIONS);
  if (words.length === 0) return USAGE;
  const group = commandsUnder(words);
  return (
    `Usage: referee ${words.join(' ')} <${nextWords(group, words.length).join('|')}> [options]\n\n` +
    `Commands:\n${commandList(group)}\n\n` +
    `Run "referee ${words.join(' ')} <command> --help" for a command's options.`
  );
}

/** Why `argv` names no command: an unknown word, or a group without its command. */
function unresolved({ words, rest }: Resolved): UsageError {
  const next = rest.find((token) => !GLOBAL_FLAGS.has(token));
  const commands = nextWords(COMMANDS, 0).join(', ');
  if (words.length === 0 && next?.startsWith('-')) {
    return new UsageError(`Unknown option '${next}' before the command; commands are ${commands}`);
  }
  if (words.length === 0) return new UsageError(`unknown command "${next}"; commands are ${commands}`);
  const group = words.join(' ');
  if (next !== undefined && !next.startsWith('-'))
    return new UsageError(`unknown ${group} command "${next}"`);
  return new UsageError(`${group} needs ${orList(nextWords(commandsUnder(words), words.length))}`);
}

/** The command's checked options and positionals (the global options merged into its own). */
export const commandInput = (command: AnyCommand, argv: readonly string[]) =>
  parseCommandLine({ ...command, options: { ...command.options, ...GLOBAL_OPTIONS } }, argv);

async function run(out: Output, resolved: Resolved): Promise<void> {
  const help = resolved.rest.some((token) => token === '--help' || token === '-h');
  const nothingNamed = resolved.words.length === 0 && resolved.rest.every((token) => GLOBAL_FLAGS.has(token));
  if (help || nothingNamed) {
    process.stdout.write(`${helpFor(resolved)}\n`);
    return;
  }
  const { command } = resolved;
  if (!command) throw unresolved(resolved);
  const input = commandInput(command, resolved.rest);
  // The system (config.ts and its schema) is loaded once a command runs, not for --help or a refusal.
  const { createContext } = await import('./kernel/context');
  await command.run(createContext(out), input);
}

/** Reports a failure: human text on stderr, and with `--json` the error document on stdout. */
function report(error: unknown, out: Output, resolved: Resolved): number {
  const failure =
    error instanceof OpsError
      ? error
      : new OpsError('failed', error instanceof Error ? error.message : String(error));
  process.stderr.write(`referee: ${failure.message}\n`);
  const problems = (failure.detail.problems ?? []) as unknown[];
  if (problems.length > 0 && 'describe' in failure && typeof failure.describe === 'function') {
    for (const line of failure.describe() as string[]) process.stderr.write(`  ${line}\n`);
  }
  if (failure instanceof UsageError) {
    process.stderr.write(
      resolved.command
        ? `Run "referee ${resolved.command.name} --help" for its options.\n`
        : 'Run "referee --help" for the commands and options.\n',
    );
  }
  if (out.json) {
    process.stdout.write(
      `${JSON.stringify({ ok: false, error: { code: failure.code, message: failure.message, ...failure.detail } })}\n`,
    );
  }
  return failure.exitCode;
}

export async function main(argv: string[]): Promise<number> {
  const out = createOutput(argv.includes('--json'));
  const resolved = resolveCommand(argv);
  try {
    await run(out, resolved);
    return 0;
  } catch (error) {
    return report(error, out, resolved);
  }
}

if (require.main === module) {
  // Exit at once: stdout is synchronous on files and pipes, and nothing (a pool, a timer) may keep us alive.
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
