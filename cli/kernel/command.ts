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
 *
 * `run` hands the parsed command line as is to the command's handler, whose input is typed from this declaration
 * ({@link CommandInput}); `run` states its return type (`async (ctx, input): Promise<void> => …`), as TypeScript
 * cannot infer a declaration's type through a handler whose type is read from that declaration.
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

/** What the handler of command `C` gets: the options and positionals its declaration gives, typed. */
export type CommandInput<C> = C extends Command<infer O, infer P> ? ParsedCommandLine<O, P> : never;

/**
 * A command's handler, typed from its declaration (`CommandHandler<typeof keysCreate>`): the declaration's `run`
 * hands it the parsed command line as is, so no handler restates an option's type.
 */
export type CommandHandler<C> = (ctx: CommandContext, input: CommandInput<C>) => Promise<void>;

// `any` lets commands with different options share one list (run's parameter is contravariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any, any>;
