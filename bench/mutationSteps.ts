/**
 * Where one mutation spends its wall time, step by step: `npx tsx bench/mutationSteps.ts [--requests n]`.
 *
 * Starts the bench's system (bench/system.ts) with tracing exported to a receiver on loopback that keeps the
 * spans, imports a small math run and a genomics bundle, then sends, one request at a time (1 client), an echo
 * Update through the bare route, a math workflow action (`feedback`) and a genomics decision override, in turn.
 * From each request's trace it prints the median time of every step: the API's PostgreSQL statements before and
 * after the Update, the Update call itself split at the persisting local activity (server and worker before it,
 * the activity's statement, the workflow task's completion after it), and the API's own time between them.
 * Tracing costs time of its own, so absolute figures are a little above an untraced run's; the steps' shares
 * are what this is for. The bench's pairs (`npm run bench -- --only mutation`) give the B/A ratios.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { callApi, createTopics, generateBundle, opsImport, seedPeopleAndMathRun } from './dataset';
import { type ReceivedSpan, startOtlpReceiver } from './otlpReceiver';
import { median } from './stats';
import { ECHO_TASK_QUEUE, startBenchSystem } from './system';
import { exitWhenDone } from './exitWhenDone';

const SUBJECTS = 8;

/** What a statement does, by its text (the `db.statement` the pg instrumentation records). */
const STATEMENTS: Array<[RegExp, string]> = [
  [/INSERT INTO idempotency_records/, 'Idempotency-Key claim'],
  [/UPDATE idempotency_records[\s\S]*INSERT INTO key_events/, 'Idempotency-Key receipt and key event'],
  [/UPDATE idempotency_records/, 'Idempotency-Key receipt'],
  [/DELETE FROM idempotency_records/, 'Idempotency-Key release'],
  [/INSERT INTO key_events/, 'write_request key event'],
  [/json_agg\(json_build_object\(\s*'id', e\.id/, 'task with its workflow view'],
  [/FROM math_task_events WHERE task_id/, 'task events'],
  [/FROM math_tasks t/, 'task row'],
  [/FROM members/, 'reviewer choices'],
  [/FROM math_clients/, 'client choices'],
  [/FROM genomics_topics t/, 'topic row'],
  [/genomics_campaigns/, 'campaign check'],
  [/UPDATE math_tasks/, 'math transition'],
  [/genomics_events|UPDATE genomics_topics/, 'genomics transition'],
];

const statementOf = (span: ReceivedSpan): string => {
  const attribute = span.attributes?.find((a) => a.key === 'db.statement' || a.key === 'db.query.text');
  const text = attribute?.value.stringValue ?? span.name;
  return STATEMENTS.find(([pattern]) => pattern.test(text))?.[1] ?? text.replace(/\s+/g, ' ').slice(0, 60);
};

const ms = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;
const startOf = (span: ReceivedSpan) => ms(span.startTimeUnixNano);
const endOf = (span: ReceivedSpan) => ms(span.endTimeUnixNano);

/** Total time covered by intervals (overlaps counted once). */
function covered(intervals: Array<[number, number]>): number {
  const sorted = [...intervals].sort((x, y) => x[0] - y[0]);
  let total = 0;
  let until = -Infinity;
  for (const [from, to] of sorted) {
    if (to <= until) continue;
    total += to - Math.max(from, until);
    until = to;
  }
  return total;
}

/** One request's steps (ms) from its trace: statement → duration summed, plus the segments around the Update. */
function stepsOf(trace: ReceivedSpan[]): Map<string, number> | null {
  const root = trace.find((s) => !s.parentSpanId && s.service === 'referee-api');
  const update = trace.find(
    (s) => s.name.startsWith('StartWorkflowUpdate') || s.name.startsWith('UpdateWithStart'),
  );
  if (!root || !update) return null;
  const activity = trace.find((s) => s.name.startsWith('RunActivity'));
  const steps = new Map<string, number>();
  const add = (name: string, value: number) => steps.set(name, (steps.get(name) ?? 0) + value);
  add('HTTP request (server span)', endOf(root) - startOf(root));
  const apiStatements = trace.filter((s) => s.service === 'referee-api' && s.name.startsWith('pg.query'));
  const segment = (label: string, from: number, to: number) => {
    const inside = apiStatements.filter((s) => startOf(s) >= from && endOf(s) <= to);
    for (const s of inside) add(`${label}: ${statementOf(s)}`, endOf(s) - startOf(s));
    const pg = covered(inside.map((s) => [startOf(s), endOf(s)]));
    add(`${label}: PostgreSQL, wall`, pg);
    add(`${label}: API own time`, to - from - pg);
  };
  segment('1 before the Update', startOf(root), startOf(update));
  add('2 Update call', endOf(update) - startOf(update));
  if (activity) {
    add('2 Update: until the activity starts (server, worker)', startOf(activity) - startOf(update));
    add('2 Update: persisting activity', endOf(activity) - startOf(activity));
    add('2 Update: after the activity (task completion, server)', endOf(update) - endOf(activity));
  }
  segment('3 after the Update', endOf(update), endOf(root));
  return steps;
}

function report(title: string, client: number[], traces: ReceivedSpan[][]): string[] {
  const perRequest = traces.map(stepsOf).filter((s): s is Map<string, number> => s !== null);
  const names = [...new Set(perRequest.flatMap((s) => [...s.keys()]))].sort();
  const lines = [`${title}: client p50 ${median(client).toFixed(2)} ms over ${client.length} requests`];
  for (const name of names)
    lines.push(`  ${name.padEnd(66)} ${median(perRequest.map((s) => s.get(name) ?? 0)).toFixed(2)} ms`);
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '200' } } });
  const requests = Number(values.requests);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const loadAtStart = loadavg();
  const receiver = await startOtlpReceiver({ keep: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'referee-steps-'));
  const system = await startBenchSystem({
    dataDir,
    log,
    // Every span exported, sooner than the default 5 s, so none is still buffered when the run ends.
    extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '500' },
  });
  try {
    const runId = 'steps-run';
    const { people } = await seedPeopleAndMathRun(system, { tasks: 40, dataDir, seed: 3, runId });
    const genomics = join(dataDir, 'bundles', 'genomics');
    await generateBundle({ service: 'genomics', tasks: 10, out: genomics, seed: 7, batch: 'batch-800' });
    await opsImport(system, genomics);
    const [{ id: campaignId }]: Array<{ id: string }> = await system.dataSource.query(
      `SELECT id FROM genomics_campaigns WHERE status = 'OPEN' ORDER BY id LIMIT 1`,
    );
    const tasks: Array<{ task_id: string }> = await system.dataSource.query(
      'SELECT task_id FROM math_tasks WHERE run_id = $1 ORDER BY task_id LIMIT $2',
      [runId, SUBJECTS],
    );
    const topics = await createTopics(system, people, 'batch-901', SUBJECTS);
    const decisions = new Map<string, string>();
    for (const topic of topics) {
      const assigned = await callApi<{ assignmentId: string }>(
        system.apiUrl,
        people.genomicsOwner,
        'PUT',
        `/api/v1/topics/${topic}/reviewer`,
        { reviewerId: people.genomicsReviewer.memberId, instructions: 'Steps.', dueAt: null },
        5,
      );
      await callApi(
        system.apiUrl,
        people.genomicsReviewer,
        'POST',
        `/api/v1/topics/${topic}/reviews`,
        { assignmentId: assigned.body.assignmentId, verdict: 'READY_AS_IS', body: 'Ready.' },
        5,
      );
      decisions.set(topic, 'READY');
    }
    const echoIds = Array.from({ length: SUBJECTS }, (_, i) => `steps-echo-${i}`);
    for (const id of echoIds)
      await system.temporal.workflow.start('benchEchoWorkflow', {
        workflowId: id,
        taskQueue: ECHO_TASK_QUEUE,
      });
    const versions = new Map(tasks.map((t) => [t.task_id, 0]));

    const timed = async (send: () => Promise<{ status: number; ms: number }>) => {
      const answer = await send();
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      return answer.ms;
    };
    const echo = (i: number) =>
      timed(async () => {
        const started = performance.now();
        const answer = await fetch(`${system.baselineUrl}/bare/echo/${echoIds[i % SUBJECTS]}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ n: i }),
        });
        await answer.text();
        return { status: answer.status, ms: performance.now() - started };
      });
    const math = (i: number) =>
      timed(async () => {
        const taskId = tasks[i % SUBJECTS].task_id;
        const answer = await callApi<{ task: { version: number } }>(
          system.apiUrl,
          people.mathOwner,
          'POST',
          `/api/math/tasks/${taskId}`,
          { version: versions.get(taskId), action: 'feedback', comment: `Steps feedback ${i}.` },
        );
        if (answer.status === 200) versions.set(taskId, answer.body.task.version);
        return answer;
      });
    const override = (i: number) =>
      timed(async () => {
        const topic = topics[i % SUBJECTS];
        const decision = decisions.get(topic) === 'READY' ? 'MINOR_REPAIR' : 'READY';
        const answer = await callApi(
          system.apiUrl,
          people.genomicsOwner,
          'POST',
          `/api/v1/topics/${topic}/decision`,
          {
            expectedDecision: decisions.get(topic),
            decision,
            campaignId,
            reason: `Steps override ${i}.`,
          },
        );
        if (answer.status === 200) decisions.set(topic, decision);
        return answer;
      });

    log(`warm-up, then ${requests} requests of each kind, one at a time`);
    for (let i = 0; i < 30; i++)
      await Promise.resolve()
        .then(() => echo(i))
        .then(() => math(i))
        .then(() => override(i));
    await sleep(1000);
    const measuredFrom = Date.now();
    const client = { echo: [] as number[], math: [] as number[], genomics: [] as number[] };
    for (let i = 30; i < 30 + requests; i++) {
      client.echo.push(await echo(i));
      client.math.push(await math(i));
      client.genomics.push(await override(i));
    }
    await sleep(3000);
    const traces = new Map<string, ReceivedSpan[]>();
    for (const span of receiver.received()) {
      if (ms(span.startTimeUnixNano) < measuredFrom) continue;
      traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
    }
    const byOperation = (name: string) =>
      [...traces.values()].filter((t) => t.some((s) => !s.parentSpanId && s.name.includes(name)));
    log('');
    log(`echo (bare route, untraced): client p50 ${median(client.echo).toFixed(2)} ms`);
    for (const line of report('math action (feedback)', client.math, byOperation('math.applyTaskAction')))
      log(line);
    for (const line of report('genomics override', client.genomics, byOperation('genomics.overrideDecision')))
      log(line);
    log(
      `load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await system.stop();
    await receiver.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

exitWhenDone(main);
