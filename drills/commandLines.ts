import {
  type CommandLine,
  type OptionDeclarations,
  type OptionValues,
  parseCommandLine,
} from '../cli/kernel/commandLine';
import { commandHelp } from '../cli/kernel/help';
import { UsageError } from '../cli/kernel/output';

/*
 * The reliability drills' command lines, declared as the ops CLI declares its commands and parsed by its parser
 * (cli/kernel/commandLine.ts): an option a drill does not take, or a value of the wrong type or range, is refused
 * naming it (exit 2).
 */

/** Where a drill writes its results table with --markdown: a doc and the name of its generated section. */
export interface ResultsSection {
  doc: string;
  section: string;
}

export const CHAOS_RESULTS: ResultsSection = { doc: 'docs/chaos.md', section: 'chaos-results' };
export const ROLLING_RESTART_RESULTS: ResultsSection = {
  doc: 'docs/chaos.md',
  section: 'rolling-restart-results',
};
export const ROLLOUT_RESULTS: ResultsSection = { doc: 'docs/chaos.md', section: 'rollout-results' };
export const NETWORK_RESULTS: ResultsSection = { doc: 'docs/chaos.md', section: 'chaos-network' };
export const RESTART_TIMES_RESULTS: ResultsSection = { doc: 'docs/chaos.md', section: 'restart-times' };
export const SOAK_RESULTS: ResultsSection = { doc: 'docs/soak.md', section: 'soak-results' };

/** The options both drills take besides their own. */
const drillOptions = (results: ResultsSection) =>
  ({
    keep: { type: 'boolean', summary: 'Keep the data folder and its logs (the drill prints where).' },
    markdown: {
      type: 'boolean',
      summary: `Also write the results table into ${results.doc} (its generated section, ${results.section}).`,
    },
    help: { type: 'boolean', short: 'h', summary: 'This text.' },
  }) as const;

export const CHAOS = {
  name: 'chaos',
  summary:
    "Runs `npm run start:cluster` (Temporal's server on PostgreSQL, 2 worker and 2 API processes) on loopback, " +
    'with its data in a temporary folder and a PostgreSQL of its own, and drives steady load from both services ' +
    'while it injects faults.',
  details: [
    'The load: math actions and verdicts, genomics reviewer changes, imports through the ops CLI, verified',
    'downloads and reads. The faults, round-robin: kill -9 of a worker, of an API process, of the Temporal',
    'frontend (the server when REFEREE_TEMPORAL_TOPOLOGY=single), of a Temporal history host and of a matching',
    'host, and a restart of PostgreSQL. A request answered 503 is retried with its Idempotency-Key after its',
    'Retry-After, as a client should. Then it checks every acknowledged change against the projection, the',
    'events and the workflow histories (each applied exactly once), runs reconcile and verify-storage, and',
    'prints the table (docs/chaos.md). Exit 1 on a lost or duplicated change, a 503 without Retry-After, any',
    'other 5xx, or a reconcile or storage finding.',
  ],
  options: {
    minutes: { type: 'number', value: 'n', min: 1, max: 120, default: 8, summary: 'How long the load runs.' },
    rounds: {
      type: 'integer',
      value: 'n',
      min: 1,
      max: 20,
      default: 3,
      summary: 'How many faults of each kind are injected.',
    },
    clients: {
      type: 'integer',
      value: 'n',
      min: 1,
      max: 32,
      default: 4,
      summary: 'Client loops, each on tasks and topics of its own.',
    },
    tasks: {
      type: 'integer',
      value: 'n',
      min: 8,
      default: 120,
      summary: 'Tasks of the generated math run (a third as many genomics topics, at least 8).',
    },
    'rolling-restart': {
      type: 'boolean',
      summary:
        'Instead of the faults, restart every worker and API process one at a time with SIGTERM, round after ' +
        'round, and fail on any 503 or dropped connection meanwhile (with --markdown: the rolling-restart-results ' +
        'section).',
    },
    rollout: {
      type: 'boolean',
      summary:
        'Instead of the faults, after a minute of load `referee workers rollout` of the checkout built as the ' +
        'extra-upsert variant (task workflows that issue one more command, no patch), then `referee workers ' +
        'rollback`; fail on a TMPRL1100 in any worker log or a task left on the old build (with --markdown: the ' +
        'rollout-results section).',
    },
    network: {
      type: 'boolean',
      summary:
        'Instead, the network drill (root only): every process and store in a network namespace of its own, ' +
        'links through Toxiproxy, and partitions, delay, loss and a slow PostgreSQL one after another on a ' +
        'schedule of its own (--minutes and --rounds do not apply; with --markdown: the chaos-network section).',
    },
    quick: {
      type: 'boolean',
      summary: 'With --network: two faults only (API ↔ PostgreSQL partitioned, Temporal answers dropped).',
    },
    ...drillOptions(CHAOS_RESULTS),
  },
  positionals: [],
} as const satisfies CommandLine;

export const SOAK = {
  name: 'soak',
  summary:
    'Starts the whole system (as npm run bench does) on a small generated dataset and drives a mixed load of ' +
    'reads, review mutations and verified downloads.',
  details: [
    "Prints requests, errors and the API's and worker's RSS each minute, then runs reconcile and",
    'verify-storage. Fails (exit 1) on any error other than a 429, on a reconcile or storage finding, or when',
    "the API's or the worker's RSS grew by more than 10 % over the last 10 minutes (docs/soak.md).",
  ],
  options: {
    minutes: {
      type: 'number',
      value: 'n',
      positive: true,
      max: 24 * 60,
      default: 20,
      summary: 'How long the load runs (the RSS check needs at least 11).',
    },
    tasks: {
      type: 'integer',
      value: 'n',
      min: 1,
      default: 2000,
      summary: 'Tasks of the generated math run.',
    },
    topics: { type: 'integer', value: 'n', min: 1, default: 100, summary: 'Genomics topics created.' },
    clients: {
      type: 'integer',
      value: 'n',
      min: 1,
      max: 64,
      default: 4,
      summary: 'Client loops, each on tasks and topics of its own.',
    },
    ...drillOptions(SOAK_RESULTS),
  },
  positionals: [],
} as const satisfies CommandLine;

export const RESTART_TIMES = {
  name: 'restart-times',
  summary:
    'Runs `npm start` (one worker, one API) with its data in a temporary folder and kills its API and its worker ' +
    'with kill -9, each in turn, timing every step of the replacement.',
  details: [
    'Per kill: the seconds until the supervisor spawned the replacement, it loaded its modules, it listened',
    "(API) or polled (worker), /healthz answered (API), the workflow task left on the dead worker's sticky",
    'queue timed out (worker), and a change on that task was acknowledged. Each process has run a minute before',
    'it is killed, so every kill is a first crash. With --sticky, then one `npm run start:cluster` per',
    'sticky-queue timeout, counting the workflow tasks that timed out on a sticky queue under steady changes.',
  ],
  options: {
    rounds: {
      type: 'integer',
      value: 'n',
      min: 1,
      max: 20,
      default: 3,
      summary: 'Kills of each process.',
    },
    'compile-cache': {
      type: 'string',
      value: 'on|off|both',
      choices: ['on', 'off', 'both'],
      default: 'on',
      summary:
        "V8's compile cache of the processes npm start supervises (NODE_COMPILE_CACHE); both: the kills run " +
        'without it, then with it, in one table.',
    },
    load: {
      type: 'integer',
      value: 'clients',
      min: 0,
      max: 32,
      default: 0,
      summary:
        'Also run the kills under load: this many clients changing the demo tasks in closed loops through every ' +
        'kill, after the same kills on the idle system, in one table.',
    },
    sticky: {
      type: 'string',
      value: 'seconds,...',
      summary: 'Sticky-queue timeouts to compare (WORKER_STICKY_QUEUE_TIMEOUT_SECONDS), e.g. 1,3,10.',
    },
    actions: {
      type: 'integer',
      value: 'n',
      min: 10,
      default: 400,
      summary: 'Changes per sticky-queue timeout compared.',
    },
    ...drillOptions(RESTART_TIMES_RESULTS),
  },
  positionals: [],
} as const satisfies CommandLine;

/** How a drill is typed, for its help. */
const invocation = (drill: CommandLine) => `npm run ${drill.name} --`;

/**
 * A drill's options from its command line, or the exit code after it printed its help (0) or why the command line
 * is refused (2).
 */
export function drillArguments<O extends OptionDeclarations>(
  drill: CommandLine<O>,
  argv: readonly string[] = process.argv.slice(2),
): OptionValues<O> | number {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(commandHelp(drill, invocation(drill)));
    return 0;
  }
  try {
    return parseCommandLine(drill, argv).options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${drill.name}: ${error.message}\n\n${commandHelp(drill, invocation(drill))}`);
    return 2;
  }
}
