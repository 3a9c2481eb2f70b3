import type {
  CommandLine,
  OptionDeclarations,
  ParsedCommandLine,
  PositionalDeclaration,
} from './commandLine';
import type { CommandContext } from './context';

/**
 * One `referee` command, declared once: its command line (name, summary, options with their types, positionals)
 * and what it does. Parsing, its `--help`, the usage text and docs/cli.md derive from it. `run` imports what the
 * command needs when it runs, so that declaring every command costs the CLI's start nothing.
 */
export interface Command<
  O extends OptionDeclarations = OptionDeclarations,
  P extends readonly PositionalDeclaration[] = readonly PositionalDeclaration[],
> extends CommandLine<O, P> {
  run(ctx: CommandContext, input: ParsedCommandLine<O, P>): Promise<void>;
}

/** Declares a command, keeping the literal types of its options so that `run` gets its values typed. */
export function defineCommand<
  const O extends OptionDeclarations,
  const P extends readonly PositionalDeclaration[],
>(command: Command<O, P>): Command<O, P> {
  return command;
}

// `any` lets commands with different options share one list (run's parameter is contravariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any, any>;
