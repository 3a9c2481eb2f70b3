import { createTopics, seedPeopleAndMathRun } from '../bench/dataset';
import { runStamp } from '../bench/docSection';
import { exitWhenDone } from '../bench/exitWhenDone';
import { runOperatorChecks } from '../bench/operatorChecks';
import type { SystemAccess } from '../bench/system';
import { type Cluster, startCluster } from './chaosCluster';
import { faultKinds, injectFaults, measureRecoverySplits, measureShardMoves } from './chaosFaults';
import { checkLedger } from './chaosLedger';
import { Load } from './chaosLoad';
import { type ChaosOutcome, chaosChecks, formatTable } from './chaosReport';
import {
  CHAOS,
  CHAOS_RESULTS,
  drillArguments,
  ROLLING_RESTART_RESULTS,
  ROLLOUT_RESULTS,
} from './commandLines';
import { type RestartRecord, restartTable, rollingRestartChecks, rollingRestarts } from './rollingRestart';
import {
  countNondeterminismErrors,
  type RolloutDrillResult,
  rolloutChecks,
  rolloutDrill,
  rolloutTable,
} from './rolloutDrill';
import { networkRole, runNetworkDrill, runNetworkRole } from './networkDrill';
import { reportResults, withScratchFolder } from './results';

const networkDefaults = { quick: false, clients: 1, tasks: 8, keep: false, markdown: false };

/*
 * `npm run chaos`: faults on the cluster profile under steady load from both services, then every acknowledged
 * change checked (docs/chaos.md). Its command line is declared in drills/commandLines.ts.
 */

async function main(): Promise<number> {
  // A store the network drill started in a namespace of its own (drills/networkDrill.ts) takes no arguments.
  const role = networkRole();
  if (role !== undefined && role !== 'drill') return runNetworkRole(role, networkDefaults);
  const args = drillArguments(CHAOS);
  if (typeof args === 'number') return args;
  if (args.quick && !args.network) {
    console.error('chaos: --quick goes with --network');
    return 2;
  }
  if (args.rollout && args['rolling-restart']) {
    console.error('chaos: --rollout and --rolling-restart are two drills; run one at a time');
    return 2;
  }
  if (args.network) return role === 'drill' ? runNetworkRole(role, args) : runNetworkDrill();
  const stamp = args.markdown ? runStamp('npm run chaos --') : null;
  const started = Date.now();
  const log = (line: string) =>
    process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);
  return withScratchFolder('referee-chaos-', args.keep, log, async (dataDir) => {
    const cluster = await startCluster(dataDir, log);
    try {
      const access = await cluster.access();
      const outcome = await drive(cluster, access, dataDir, args, log);
      for (const f of outcome.reconciled.findings)
        console.log(
          `- reconcile: ${f.service} ${f.subjectId} ${f.outcome} (projection v${f.projectionVersion}, workflow v${f.workflowVersion})`,
        );
      await access.close();
      const rolling = outcome.restarts !== undefined;
      const rollouts = outcome.rollouts;
      const code = reportResults(
        rolling ? ROLLING_RESTART_RESULTS : rollouts ? ROLLOUT_RESULTS : CHAOS_RESULTS,
        {
          table: [
            formatTable(outcome),
            ...(rolling ? ['', ...restartTable(outcome.restarts!)] : []),
            ...(rollouts ? ['', ...rolloutTable(rollouts)] : []),
          ].join('\n'),
          checks: [
            ...chaosChecks(outcome),
            ...(rolling ? rollingRestartChecks(outcome.restarts!) : []),
            ...(rollouts ? rolloutChecks(rollouts) : []),
          ],
          stamp,
        },
      );
      console.log(`- chaos run in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
      return code;
    } finally {
      await cluster.stop();
    }
  });
}

/**
 * Seeds the dataset, then runs the client loops and the imports until the deadline while it injects the faults;
 * then looks up every acknowledged change and runs reconcile and verify-storage.
 */
async function drive(
  cluster: Cluster,
  access: SystemAccess,
  dataDir: string,
  args: {
    minutes: number;
    rounds: number;
    clients: number;
    tasks: number;
    'rolling-restart': boolean;
    rollout: boolean;
  },
  log: (line: string) => void,
): Promise<ChaosOutcome & { restarts?: RestartRecord[]; rollouts?: RolloutDrillResult }> {
  const { people } = await seedPeopleAndMathRun(access, {
    tasks: args.tasks,
    dataDir,
    seed: 11,
    runId: 'chaos-run',
  });
  const topics = await createTopics(access, people, 'batch-700', Math.max(8, Math.round(args.tasks / 3)));
  const tasks: Array<{ task_id: string }> = await access.dataSource.query(
    `SELECT task_id FROM math_tasks WHERE run_id = 'chaos-run' ORDER BY task_id`,
  );
  const artifacts: Array<{ artifact_id: string; sha256: string }> = await access.dataSource.query(
    `SELECT artifact_id, sha256 FROM math_artifacts WHERE run_id = 'chaos-run' AND class = 'STANDARD'
      ORDER BY size_bytes LIMIT 40`,
  );
  log(`dataset: ${tasks.length} tasks, ${topics.length} topics, ${artifacts.length} artifacts to download`);

  const load = new Load(access.apiUrl, people, log);
  const deadline = Date.now() + args.minutes * 60_000;
  const [probeTask, ...loadTasks] = tasks.map((t) => t.task_id);
  const loops = Array.from({ length: args.clients }, (_, index) =>
    load.loop(index, args.clients, deadline, {
      tasks: loadTasks,
      topics,
      artifacts: new Map(artifacts.map((a) => [a.artifact_id, a.sha256])),
    }),
  );
  const imports = load.runImports(access, dataDir, deadline);
  const { temporal, processes } = await cluster.connection();
  const topology = temporal?.topology ?? 'single';
  const restarts = args['rolling-restart']
    ? await rollingRestarts(cluster, load, { deadline, probeTask, log })
    : undefined;
  const rollouts = args.rollout ? await rolloutDrill(cluster, access, load, { deadline, log }) : undefined;
  const faults =
    restarts || rollouts
      ? []
      : await injectFaults(cluster, load, {
          kinds: Array.from({ length: args.rounds }, () => faultKinds(topology)).flat(),
          topology,
          deadline,
          probeTask,
          temporal: access.temporal,
          log,
        });
  await Promise.all([...loops, imports]);
  log(`load over: ${load.counters.requests} requests; checking every acknowledged change`);
  const historyLogs = (processes.temporalProcesses ?? []).filter((p) => p.roles.includes('history'));
  await measureShardMoves(
    faults,
    historyLogs.flatMap((p) => p.logFile ?? []),
    Date.now(),
  );
  await measureRecoverySplits(faults, access.temporal, probeTask, Date.now());

  const ledger = await checkLedger(access, load);
  for (const finding of ledger.findings) log(`ledger ${finding}`);
  const { reconciled, verified } = await runOperatorChecks(access, log);
  if (rollouts) rollouts.nondeterminismErrors = await countNondeterminismErrors(dataDir);
  return { topology, counters: load.counters, faults, ledger, reconciled, verified, restarts, rollouts };
}

exitWhenDone(main, 'chaos');
