import { parseArgs } from 'node:util';
import { UsageError } from './output';

/*
 * A command line declared once: its name, summary, options with their types, and positionals. The parser, the
 * `--help` text and docs/cli.md derive from the declaration; the ops CLI (`referee`) and the reliability drills
 * (`npm run chaos`, `npm run soak`) share it.
 */

interface OptionBase {
  /** One line for `--help` and docs/cli.md. */
  summary: string;
  /** A one-letter alias (`-h`). */
  short?: string;
}

export interface BooleanOption extends OptionBase {
  type: 'boolean';
}

interface ValueOption extends OptionBase {
  /** What the value is, shown as `--name <value>`. */
  value: string;
  /** The command cannot run without it: refused when absent, naming it. */
  required?: boolean;
}

export interface StringOption extends ValueOption {
  type: 'string';
  /** The only values accepted; anything else is refused naming them. */
  choices?: readonly string[];
  default?: string;
}

/** A whole number from `min` to `max` (inclusive). */
export interface IntegerOption extends ValueOption {
  type: 'integer';
  min: number;
  max?: number;
  /** The unit, in the refusal: "a whole number of minutes from 0 to 10080". */
  unit?: string;
  default?: number;
}

/** A number above 0 (`positive`) or from `min`, up to `max` (inclusive). */
export interface NumberOption extends ValueOption {
  type: 'number';
  positive?: boolean;
  min?: number;
  max?: number;
  unit?: string;
  default?: number;
}

export type OptionDeclaration = BooleanOption | StringOption | IntegerOption | NumberOption;
export type OptionDeclarations = Readonly<Record<string, OptionDeclaration>>;

export interface PositionalDeclaration {
  /** Shown as `<name>`, and the key of its value. */
  name: string;
  summary: string;
  required: boolean;
  /** Added to the refusal when it is missing: "import needs a <bundle-dir> (a folder with a manifest.json)". */
  hint?: string;
}

export interface CommandLine<
  O extends OptionDeclarations = OptionDeclarations,
  P extends readonly PositionalDeclaration[] = readonly PositionalDeclaration[],
> {
  /** The words that name it: `migrate`, `keys create`. */
  name: string;
  /** One line for the usage text and the reference. */
  summary: string;
  /** More lines for the command's own `--help` and docs/cli.md. */
  details?: readonly string[];
  options: O;
  positionals: P;
}

type ValueOf<D> = D extends BooleanOption
  ? boolean
  : D extends IntegerOption | NumberOption
    ? number
    : D extends { choices: readonly (infer C)[] }
      ? C
      : string;
type AlwaysPresent<D> = D extends BooleanOption
  ? true
  : D extends { default: unknown }
    ? true
    : D extends { required: true }
      ? true
      : false;

/** The parsed options: booleans are false when absent; a value is there when given, defaulted or required. */
export type OptionValues<O extends OptionDeclarations> = {
  -readonly [K in keyof O]: AlwaysPresent<O[K]> extends true ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
};

export type PositionalValues<P extends readonly PositionalDeclaration[]> = {
  [D in P[number] as D['name']]: D['required'] extends true ? string : string | undefined;
};

export interface ParsedCommandLine<O extends OptionDeclarations, P extends readonly PositionalDeclaration[]> {
  options: OptionValues<O>;
  positionals: PositionalValues<P>;
}

/** `--name <value>`, `-h, --help`: how an option is written in help and messages. */
export function optionSynopsis(name: string, option: OptionDeclaration): string {
  const flag = `${option.short ? `-${option.short}, ` : ''}--${name}`;
  return option.type === 'boolean' ? flag : `${flag} <${option.value}>`;
}

const article = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} <${name}>`;
/** `a, b or c`. */
export const orList = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** What a numeric option accepts, as its refusal says it: "a whole number from 1 to 365". */
export function describeRange(option: IntegerOption | NumberOption): string {
  const unit = option.unit ? ` of ${option.unit}` : '';
  if (option.type === 'integer') {
    return option.max === undefined
      ? `a whole number${unit} of at least ${option.min}`
      : `a whole number${unit} from ${option.min} to ${option.max}`;
  }
  if (option.positive)
    return `a positive number${unit}${option.max === undefined ? '' : ` up to ${option.max}`}`;
  if (option.min !== undefined && option.max !== undefined)
    return `a number${unit} from ${option.min} to ${option.max}`;
  if (option.min !== undefined) return `a number${unit} of at least ${option.min}`;
  return `a number${unit}${option.max === undefined ? '' : ` up to ${option.max}`}`;
}

function convert(name: string, option: OptionDeclaration, raw: string | boolean): unknown {
  if (option.type === 'boolean') return raw;
  const text = String(raw);
  if (option.type === 'string') {
    if (option.choices && !option.choices.includes(text)) {
      const choices =
        option.choices.length === 2 ? orList(option.choices) : `one of ${option.choices.join(', ')}`;
      throw new UsageError(`--${name} must be ${choices} (got "${text}")`);
    }
    return text;
  }
  const value = Number(text);
  const whole = option.type === 'integer' && /^\d+$/.test(text);
  const inRange =
    (option.type === 'integer' ? whole : text.trim() !== '' && Number.isFinite(value)) &&
    (option.type === 'number' && option.positive ? value > 0 : value >= (option.min ?? -Infinity)) &&
    value <= (option.max ?? Infinity);
  if (!inRange) throw new UsageError(`--${name} must be ${describeRange(option)}`);
  return value;
}

/**
 * Parses `argv` (the words after the command's name) against the declaration. Refused, as a {@link UsageError}
 * naming the culprit: an option the command does not take, a missing value, a value of the wrong type or outside
 * its choices or range, a missing required option or positional, and an extra positional.
 */
export function parseCommandLine<O extends OptionDeclarations, P extends readonly PositionalDeclaration[]>(
  command: CommandLine<O, P>,
  argv: readonly string[],
): ParsedCommandLine<O, P> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(
        Object.entries(command.options).map(([name, option]) => [
          name,
          {
            type: option.type === 'boolean' ? 'boolean' : 'string',
            ...(option.short && { short: option.short }),
          },
        ]),
      ),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1] ?? '?';
      const taken = Object.keys(command.options).map((name) => `--${name}`);
      throw new UsageError(
        `Unknown option '${unknown}' for ${command.name} (its options: ${taken.join(', ')})`,
      );
    }
    // Missing or ambiguous values: node's own words name the option.
    if (code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
  const options: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, option] of Object.entries(command.options)) {
    const raw = parsed.values[name];
    if (raw !== undefined) options[name] = convert(name, option, raw as string | boolean);
    else if (option.type === 'boolean') options[name] = false;
    else if (option.default !== undefined) options[name] = option.default;
    else if (option.required) missing.push(optionSynopsis(name, option));
  }
  if (missing.length > 0) throw new UsageError(`${command.name} needs ${missing.join(' and ')}`);
  const given = parsed.positionals;
  if (given.length > command.positionals.length) {
    const used = given.slice(0, command.positionals.length);
    throw new UsageError(
      `unexpected argument "${given[used.length]}" after "${[command.name, ...used].join(' ')}"`,
    );
  }
  const positionals: Record<string, string | undefined> = {};
  const absent = command.positionals.filter((p, i) => {
    positionals[p.name] = given[i];
    return p.required && given[i] === undefined;
  });
  if (absent.length > 0) {
    const hint = absent[0].hint ? ` (${absent[0].hint})` : '';
    throw new UsageError(`${command.name} needs ${absent.map((p) => article(p.name)).join(' and ')}${hint}`);
  }
  return { options: options as OptionValues<O>, positionals: positionals as PositionalValues<P> };
}
