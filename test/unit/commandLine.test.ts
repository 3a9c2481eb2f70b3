import { type CommandLine, parseCommandLine } from '../../cli/kernel/commandLine';
import { UsageError } from '../../cli/kernel/output';
import { CHAOS, drillArguments, SOAK } from '../../drills/commandLines';

/** One option of every type, a required option, a required and an optional positional. */
const EXAMPLE = {
  name: 'example run',
  summary: 'An example.',
  options: {
    verbose: { type: 'boolean', short: 'v', summary: 'More.' },
    colour: { type: 'string', value: 'colour', choices: ['red', 'green', 'blue'], summary: 'A colour.' },
    pair: { type: 'string', value: 'side', choices: ['left', 'right'], summary: 'A side.' },
    count: { type: 'integer', value: 'n', min: 1, max: 10, default: 3, summary: 'How many.' },
    wait: { type: 'integer', value: 'minutes', min: 0, unit: 'minutes', summary: 'How long.' },
    rate: { type: 'number', value: 'MiB/s', positive: true, unit: 'MiB/s', summary: 'How fast.' },
    share: { type: 'number', value: 'x', min: 0, max: 1, summary: 'What part.' },
    target: { type: 'string', value: 'url', required: true, summary: 'Where.' },
  },
  positionals: [
    { name: 'input', summary: 'What.', required: true, hint: 'a file' },
    { name: 'output', summary: 'Where to.', required: false },
  ],
} as const satisfies CommandLine;

const parse = (argv: string[]) => parseCommandLine(EXAMPLE, argv);
const refusal = (argv: string[]) => {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('the declaration-based parser the CLI and the drills share', () => {
  test('values arrive converted to their declared types, with defaults; absent booleans are false', () => {
    expect(parse(['in.json', '--target', 'http://x', '--rate', '2.5', '-v', '--share', '0.5'])).toEqual({
      options: { verbose: true, count: 3, rate: 2.5, share: 0.5, target: 'http://x' },
      positionals: { input: 'in.json', output: undefined },
    });
    expect(
      parse(['--count=10', '--wait', '0', '--target', 't', 'a', 'b', '--colour', 'red']).options,
    ).toEqual({
      verbose: false,
      colour: 'red',
      count: 10,
      wait: 0,
      target: 't',
    });
  });

  test.each([
    [['--bogus'], "Unknown option '--bogus' for example run (its options: --verbose, --colour, --pair"],
    [['-x'], "Unknown option '-x' for example run"],
    [['--count'], "Option '--count <value>' argument missing"],
    [['--verbose=yes'], "Option '-v, --verbose' does not take an argument"],
  ])('%j is refused naming the option: %s', (argv, message) => {
    expect(refusal(['in', '--target', 't', ...argv])).toContain(message);
  });

  test.each([
    [['--count', '1.5'], '--count must be a whole number from 1 to 10'],
    [['--count', '0'], '--count must be a whole number from 1 to 10'],
    [['--count', '11'], '--count must be a whole number from 1 to 10'],
    [['--count', 'three'], '--count must be a whole number from 1 to 10'],
    [['--wait', '1e3'], '--wait must be a whole number of minutes of at least 0'],
    [['--rate', '0'], '--rate must be a positive number of MiB/s'],
    [['--rate', 'fast'], '--rate must be a positive number of MiB/s'],
    [['--rate', ' '], '--rate must be a positive number of MiB/s'],
    [['--share', '1.5'], '--share must be a number from 0 to 1'],
    [['--colour', 'pink'], '--colour must be one of red, green, blue (got "pink")'],
    [['--pair', 'up'], '--pair must be left or right (got "up")'],
  ])('%j is refused for its type: %s', (argv, message) => {
    expect(refusal(['in', '--target', 't', ...argv])).toBe(message);
  });

  test('required options and positionals are named when missing; an extra positional is refused', () => {
    expect(refusal(['in'])).toBe('example run needs --target <url>');
    expect(refusal(['--target', 't'])).toBe('example run needs an <input> (a file)');
    expect(refusal(['a', 'b', 'c', '--target', 't'])).toBe('unexpected argument "c" after "example run a b"');
  });
});

describe('the drills declare their command lines for the same parser', () => {
  let errors: string[];
  let printed: string[];
  beforeEach(() => {
    errors = [];
    printed = [];
    jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => jest.restoreAllMocks());

  test('chaos and soak get typed values with their defaults', () => {
    expect(drillArguments(CHAOS, ['--minutes', '3', '--rounds', '1', '--markdown'])).toEqual({
      minutes: 3,
      rounds: 1,
      clients: 4,
      tasks: 120,
      'rolling-restart': false,
      rollout: false,
      network: false,
      quick: false,
      keep: false,
      markdown: true,
      help: false,
    });
    expect(drillArguments(CHAOS, ['--rolling-restart'])).toMatchObject({ 'rolling-restart': true });
    expect(drillArguments(CHAOS, ['--network', '--quick'])).toMatchObject({ network: true, quick: true });
    expect(drillArguments(SOAK, ['--minutes', '0.5', '--keep'])).toMatchObject({
      minutes: 0.5,
      tasks: 2000,
      topics: 100,
      keep: true,
    });
  });

  test.each([
    [SOAK, ['--rounds', '2'], "soak: Unknown option '--rounds' for soak"],
    [CHAOS, ['--topics', '9'], "chaos: Unknown option '--topics' for chaos"],
    [CHAOS, ['--minutes', '121'], 'chaos: --minutes must be a number from 1 to 120'],
    [CHAOS, ['--rounds', '1.5'], 'chaos: --rounds must be a whole number from 1 to 20'],
    [SOAK, ['--minutes', '0'], 'soak: --minutes must be a positive number up to 1440'],
    [SOAK, ['--clients', 'many'], 'soak: --clients must be a whole number from 1 to 64'],
  ])('%#: a refused command line exits 2 with the reason and the help', (drill, argv, message) => {
    expect(drillArguments(drill as CommandLine, argv)).toBe(2);
    expect(errors.join('\n')).toContain(message);
    expect(errors.join('\n')).toContain(`Usage: npm run ${(drill as CommandLine).name} -- [options]`);
  });

  test('--help prints the help and exits 0', () => {
    expect(drillArguments(SOAK, ['--minutes', 'x', '--help'])).toBe(0);
    expect(printed.join('\n')).toMatch(/^Usage: npm run soak -- \[options\]\n/);
    expect(printed.join('\n')).toContain('--markdown');
  });
});
