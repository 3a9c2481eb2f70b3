import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commandInput, helpFor, main, resolveCommand, USAGE } from '../../cli/main';
import { COMMANDS } from '../../cli/registry';
import { projectRoot } from '../../infra/paths';

/** `referee <argv>` as the README shows it (the bin script npx runs). */
const referee = (argv: string[]) =>
  spawnSync(process.execPath, ['bin/referee.js', ...argv], { cwd: projectRoot, encoding: 'utf8' });

/** What the CLI makes of `argv` before it connects anywhere: the command's checked input, or a refusal. */
function input(argv: string[]) {
  const { command, rest } = resolveCommand(argv);
  if (!command) throw new Error(`"${argv.join(' ')}" names no command`);
  return commandInput(command, rest);
}

/** `main(argv)` in this process, with what it wrote to stdout and stderr. */
async function runMain(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += chunk), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += chunk), true));
  try {
    return { code: await main(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('referee <command> --help', () => {
  test.each(COMMANDS.map((c) => [c.name]))('%s: its usage, arguments and every option it takes', (name) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const help = helpFor(resolveCommand([...name.split(' '), '--help']));
    expect(help).toMatch(new RegExp(`^Usage: referee ${name}\\b`));
    expect(help).toContain(command.summary.slice(0, 40));
    for (const option of [...Object.keys(command.options), 'json', 'help'])
      expect(help).toContain(`--${option}`);
    for (const positional of command.positionals) expect(help).toContain(`<${positional.name}>`);
  });

  test('every docs/ or demo/ file a help text names exists', () => {
    const texts = [USAGE, ...COMMANDS.map((c) => helpFor(resolveCommand([...c.name.split(' '), '--help'])))];
    const named = new Set(
      texts.flatMap((text) => [...text.matchAll(/\b(?:docs|demo)\/[\w./-]*\w/g)].map((m) => m[0])),
    );
    expect([...named]).toEqual(
      expect.arrayContaining(['docs/cli.md', 'docs/operator-tools.md', 'demo/members.json']),
    );
    expect([...named].filter((path) => !existsSync(join(projectRoot, path)))).toEqual([]);
  });

  test('a group lists its commands; the bin script answers sub-commands and the usage text', () => {
    expect(helpFor(resolveCommand(['webhooks', '-h']))).toContain(
      'webhooks redeliver <endpoint-id> <delivery-id>',
    );
    const usage = referee(['--help']);
    expect([usage.status, usage.stdout]).toEqual([0, `${USAGE}\n`]);
    for (const name of ['keys create', 'webhooks create']) {
      const help = referee([...name.split(' '), '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: referee ${name} --service <math\\|genomics>`));
    }
  });
});

describe('options are per command', () => {
  test('migrate --events all exits 2 naming --events, with the error document under --json', () => {
    const result = referee(['migrate', '--events', 'all', '--json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--events' for migrate");
    expect(result.stderr).toContain('Run "referee migrate --help" for its options.');
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
  });

  test.each([
    [['webhooks', 'create', '--service', 'math', '--grace-hours', '2'], "Unknown option '--grace-hours'"],
    [['members', 'upsert', 'members.json', '--dry-run'], "Unknown option '--dry-run'"],
    [
      ['keys', 'list', '--bogus'],
      "Unknown option '--bogus' for keys list (its options: --service, --json, --help)",
    ],
    [['status', '--service', 'math'], "Unknown option '--service'"],
  ])('%j is refused: %s', async (argv, message) => {
    const result = await runMain(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe('option values are checked against their declared types before the command runs', () => {
  test.each([
    [['keys', 'create', '--service', 'math'], 'keys create needs --member <identity_id>'],
    [['keys', 'create', '--member', 'a'], 'keys create needs --service <math|genomics>'],
    [
      ['keys', 'create', '--service', 'physics', '--member', 'a'],
      '--service must be math or genomics (got "physics")',
    ],
    [
      ['keys', 'create', '--service', 'math', '--member', 'a', '--role', 'ROOT'],
      '--role must be one of REVIEWER, OWNER, ADMIN',
    ],
    [
      ['keys', 'create', '--service', 'math', '--member', 'a', '--expires-in-days', '1.5'],
      'a whole number from 1 to 365',
    ],
    [
      ['keys', 'create', '--service', 'math', '--member', 'a', '--expires-in-days', '0'],
      'a whole number from 1 to 365',
    ],
    [['keys', 'create', '--service', 'math', '--member'], "Option '--member <value>' argument missing"],
    [['keys', 'revoke'], 'keys revoke needs a <key-id> (see "referee keys list")'],
    [['keys', 'revoke', 'a', 'b'], 'unexpected argument "b" after "keys revoke a"'],
    [['import'], 'import needs a <bundle-dir> (a folder with a manifest.json)'],
    [
      ['webhooks', 'create', '--service', 'math'],
      'webhooks create needs --url <https-url> and --events <type,type|all>',
    ],
    [
      ['webhooks', 'redeliver', '--service', 'math'],
      'webhooks redeliver needs an <endpoint-id> and a <delivery-id>',
    ],
    [
      ['webhooks', 'deliveries', 'x', '--service', 'math', '--limit', '101'],
      '--limit must be a whole number from 1 to 100',
    ],
    [['verify-storage', '--rate', '0'], '--rate must be a positive number of MiB/s'],
    [
      ['verify-storage', '--orphan-grace', '1.5'],
      '--orphan-grace must be a whole number of minutes from 0 to 10080',
    ],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => input(argv)).toThrow(message);
  });

  test('values arrive typed, with their defaults', () => {
    expect(input(['keys', 'create', '--service', 'genomics', '--member', 'idp|x']).options).toEqual({
      service: 'genomics',
      member: 'idp|x',
      'expires-in-days': 90,
      json: false,
      help: false,
    });
    expect(input(['verify-storage', '--rate', '2.5', '--restart']).options).toMatchObject({
      rate: 2.5,
      'orphan-grace': 15,
      restart: true,
    });
    expect(input(['webhooks', 'redeliver', 'e', '7', '--service', 'math']).positionals).toEqual({
      'endpoint-id': 'e',
      'delivery-id': '7',
    });
  });

  test.each([
    [
      ['frobnicate'],
      'unknown command "frobnicate"; commands are migrate, members, keys, scim-tokens, webhooks, import',
    ],
    [['keys'], 'keys needs create, list or revoke'],
    [['keys', 'frob'], 'unknown keys command "frob"'],
    [['--service', 'math', 'keys', 'list'], "Unknown option '--service' before the command"],
  ])('%j names no command: %s', async (argv, message) => {
    const result = await runMain(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

// In a child process: Prettier 3 formats through ES modules, which jest's CommonJS runtime cannot load.
test('docs/cli.md is what the command declarations generate (npm run generate:cli-docs)', () => {
  const check = spawnSync(
    process.execPath,
    [join(projectRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/generateCliDocs.ts', '--check'],
    { cwd: projectRoot, encoding: 'utf8' },
  );
  expect([check.status, check.stdout.trim()]).toEqual([0, 'docs/cli.md is current']);
}, 120_000);
