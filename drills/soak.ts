import { randomUUID } from 'node:crypto';
import { type Caller, createTopics, type People, seedPeopleAndMathRun } from '../bench/dataset';
import { runStamp } from '../bench/docSection';
import { exitWhenDone } from '../bench/exitWhenDone';
import { runOperatorChecks } from '../bench/operatorChecks';
import { type BenchSystem, rssOf, startBenchSystem } from '../bench/system';
import { drillArguments, SOAK, SOAK_RESULTS } from './commandLines';
import { reportResults, withScratchFolder } from './results';
import { formatTable, type Kind, type Minute, verdicts } from './soakReport';

/*
 * `npm run soak`: a mixed load on the whole system for a while, its memory sampled each minute, then the operator
 * checks (docs/soak.md). Its command line is declared in drills/commandLines.ts.
 */

const REQUEST_TIMEOUT_MS = 30_000;

async function main(): Promise<number> {
  const args = drillArguments(SOAK);
  if (typeof args === 'number') return args;
  const stamp = args.markdown ? runStamp('npm run soak --') : null;
  const log = (line: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  return withScratchFolder('referee-soak-', args.keep, log, async (dataDir) => {
    const system = await startBenchSystem({ dataDir, log });
    try {
      const { people } = await seedPeopleAndMathRun(system, {
        tasks: args.tasks,
        dataDir,
        seed: 7,
        runId: 'soak-run',
      });
      const topics = await createTopics(system, people, 'batch-800', args.topics);
      const tasks: Array<{ task_id: string }> = await system.dataSource.query(
        `SELECT task_id FROM math_tasks WHERE run_id = 'soak-run' ORDER BY task_id`,
      );
      const artifacts: Array<{ artifact_id: string }> = await system.dataSource.query(
        `SELECT artifact_id FROM math_artifacts WHERE run_id = 'soak-run' AND class = 'STANDARD' ORDER BY size_bytes LIMIT 50`,
      );
      log(
        `dataset: ${tasks.length} tasks, ${artifacts.length} artifacts to download, ${topics.length} topics`,
      );

      const table = await driveLoad(system, people, {
        minutes: args.minutes,
        clients: args.clients,
        taskIds: tasks.map((t) => t.task_id),
        topicUids: topics,
        artifactIds: artifacts.map((a) => a.artifact_id),
        log,
      });
      const { reconciled, verified } = await runOperatorChecks(system, (line) => console.log(`- ${line}`));
      return reportResults(SOAK_RESULTS, {
        table: formatTable(table),
        checks: verdicts(table, reconciled.findings.length, verified.findings.length),
        stamp,
      });
    } finally {
      await system.stop();
    }
  });
}

interface LoadPlan {
  minutes: number;
  clients: number;
  taskIds: string[];
  topicUids: string[];
  artifactIds: string[];
  log: (line: string) => void;
}

/**
 * `clients` closed loops until the deadline, each on its own share of tasks and topics (so two loops never
 * race on one version): half reads, a third review mutations (math assign/unassign, genomics reviewer
 * set/remove), the rest verified downloads. Samples counts and RSS once a minute.
 */
async function driveLoad(system: BenchSystem, people: People, plan: LoadPlan): Promise<Minute[]> {
  const deadline = Date.now() + plan.minutes * 60_000;
  const fresh = (): Minute => ({
    minute: table.length + 1,
    counts: { read: 0, mutation: 0, download: 0 },
    errors: 0,
    unavailable: 0,
    throttled: 0,
    apiMiB: 0,
    workerMiB: 0,
  });
  const table: Minute[] = [];
  let current = fresh();
  let loggedErrors = 0;
  const call = async (kind: Kind, caller: Caller, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${caller.token}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = `soak-${randomUUID()}`;
    }
    let status = 0;
    let text: string;
    let json = false;
    try {
      const response = await fetch(`${system.apiUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = response.status;
      json = (response.headers.get('content-type') ?? '').includes('json');
      text = await response.text();
    } catch (error) {
      text = error instanceof Error ? error.name : String(error);
    }
    current.counts[kind] += 1;
    if (status === 429) current.throttled += 1;
    else if (status < 200 || status >= 300) {
      current.errors += 1;
      if (status === 503) current.unavailable += 1;
      if (loggedErrors < 20) {
        loggedErrors += 1;
        plan.log(`error: ${method} ${path}: ${status} ${text.slice(0, 200)}`);
      }
    }
    return status >= 200 && status < 300 && json ? (JSON.parse(text) as Record<string, unknown>) : null;
  };
  const { mathOwner, mathReviewer, genomicsOwner, genomicsReviewer } = people;

  const loop = async (index: number) => {
    const share = <T>(items: T[]) => items.filter((_, i) => i % plan.clients === index);
    const tasks = share(plan.taskIds);
    const topics = share(plan.topicUids);
    const assigned = new Set<string>();
    for (let n = 0; Date.now() < deadline && n < 10_000_000; n += 1) {
      const task = tasks[n % tasks.length];
      const topic = topics[n % topics.length];
      const pick = n % 6;
      if (pick === 0) await call('read', mathOwner, 'GET', '/api/math/tasks?page_size=50&sort=updated');
      else if (pick === 1) await call('read', mathReviewer, 'GET', '/api/math/tasks?page_size=50');
      else if (pick === 2) await call('read', genomicsReviewer, 'GET', `/api/v1/topics/${topic}`);
      else if (pick === 3) {
        const read = await call('read', mathOwner, 'GET', `/api/math/tasks/${task}`);
        if (read) {
          const assign = !assigned.has(task);
          const done = await call('mutation', mathOwner, 'POST', `/api/math/tasks/${task}`, {
            version: read.version,
            action: 'assign',
            assignee_id: assign ? mathReviewer.memberId : null,
          });
          if (done && assign) assigned.add(task);
          else if (done) assigned.delete(task);
        }
      } else if (pick === 4) {
        const reviewerId = n % 12 === 4 ? genomicsReviewer.memberId : null;
        await call('mutation', genomicsOwner, 'PUT', `/api/v1/topics/${topic}/reviewer`, {
          reviewerId,
          instructions: 'Soak review.',
          dueAt: null,
        });
      } else {
        const artifact = plan.artifactIds[n % plan.artifactIds.length];
        await call('download', mathOwner, 'GET', `/api/math/artifacts/${artifact}/download`);
      }
    }
  };

  const sampler = setInterval(() => {
    current.apiMiB = rssOf(system.api.pid).currentMiB;
    current.workerMiB = rssOf(system.worker.pid).currentMiB;
    table.push(current);
    const c = current;
    plan.log(
      `minute ${c.minute}: ${c.counts.read} reads, ${c.counts.mutation} mutations, ${c.counts.download} downloads, ` +
        `${c.errors} errors (${c.unavailable} 503), ${c.throttled} throttled; RSS API ${c.apiMiB.toFixed(0)} MiB, worker ${c.workerMiB.toFixed(0)} MiB`,
    );
    current = fresh();
  }, 60_000);
  try {
    await Promise.all(Array.from({ length: plan.clients }, (_, i) => loop(i)));
  } finally {
    clearInterval(sampler);
  }
  return table;
}

exitWhenDone(main, 'soak');
