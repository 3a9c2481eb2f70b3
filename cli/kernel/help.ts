import {
  type CommandLine,
  describeRange,
  type OptionDeclaration,
  type OptionDeclarations,
  optionSynopsis,
} from './commandLine';

/** Help lines are wrapped to this width, continuation lines indented under their text. */
const WIDTH = 110;

/** `text` in lines of at most `width` characters, each after the first indented by `indent` spaces. */
export function wrap(text: string, indent: number, width = WIDTH): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** Terms longer than this put their text on the next line, so one long term does not push every text right. */
const MAX_TERM = 32;

/** Two columns: each term padded to the longest (up to {@link MAX_TERM}), its text wrapped beside it. */
function columns(rows: Array<[string, string]>, indent = 2): string {
  const termWidth = Math.min(MAX_TERM, Math.max(...rows.map(([term]) => term.length)));
  const start = indent + termWidth + 2;
  return rows
    .map(([term, text]) => {
      const head = `${' '.repeat(indent)}${term}`;
      return term.length > termWidth
        ? `${head}\n${' '.repeat(start)}${wrap(text, start)}`
        : `${head.padEnd(start)}${wrap(text, start)}`;
    })
    .join('\n');
}

/** What an option accepts beyond its summary: required, its choices or range, its default. */
export function optionFacts(option: OptionDeclaration): string[] {
  if (option.type === 'boolean') return [];
  const facts: string[] = [];
  if (option.required) facts.push('required');
  if (option.type === 'string' && option.choices) facts.push(`one of ${option.choices.join(', ')}`);
  if (option.type === 'integer' || option.type === 'number') facts.push(describeRange(option));
  if (option.default !== undefined) facts.push(`default ${option.default}`);
  return facts;
}

/** An option's summary, then what it accepts: "Days until the key expires. A whole number from 1 to 365; default 90." */
export function describeOption(option: OptionDeclaration): string {
  const facts = optionFacts(option).join('; ');
  return facts ? `${option.summary} ${facts[0].toUpperCase()}${facts.slice(1)}.` : option.summary;
}

/** `--service <math|genomics> --member <identity_id> [options]`: what follows the command's name. */
export function synopsis(command: CommandLine, extraOptions: OptionDeclarations = {}): string {
  const required = Object.entries(command.options)
    .filter(([, option]) => option.type !== 'boolean' && option.required)
    .map(([name, option]) => optionSynopsis(name, option));
  const optional = Object.values({ ...command.options, ...extraOptions }).some(
    (option) => option.type === 'boolean' || !option.required,
  );
  const positionals = command.positionals.map((p) => (p.required ? `<${p.name}>` : `[<${p.name}>]`));
  return [...required, ...positionals, ...(optional ? ['[options]'] : [])].join(' ');
}

/**
 * A command's `--help`: how it is typed (`invocation`, then its synopsis), what it does, its positionals and options
 * (`extraOptions`: those every command of the program takes, listed last).
 */
export function commandHelp(
  command: CommandLine,
  invocation: string,
  extraOptions: OptionDeclarations = {},
): string {
  const sections = [`Usage: ${invocation} ${synopsis(command, extraOptions)}`.trimEnd()];
  sections.push(wrap([command.summary, ...(command.details ?? [])].join(' '), 0));
  if (command.positionals.length > 0) {
    sections.push(`Arguments:\n${columns(command.positionals.map((p) => [`<${p.name}>`, p.summary]))}`);
  }
  const options = Object.entries({ ...command.options, ...extraOptions });
  if (options.length > 0) {
    sections.push(
      `Options:\n${columns(options.map(([name, option]) => [optionSynopsis(name, option), describeOption(option)]))}`,
    );
  }
  return sections.join('\n\n');
}

/** The commands of a program, one line each: how each is typed (required parts only) and its summary. */
export function commandList(commands: readonly CommandLine[]): string {
  return columns(
    commands.map((command) => [
      [command.name, ...command.positionals.map((p) => (p.required ? `<${p.name}>` : `[<${p.name}>]`))].join(
        ' ',
      ),
      command.summary,
    ]),
  );
}

/** The options every command takes, for the program's usage text. */
export function optionList(options: OptionDeclarations): string {
  return columns(
    Object.entries(options).map(([name, option]) => [optionSynopsis(name, option), describeOption(option)]),
  );
}
