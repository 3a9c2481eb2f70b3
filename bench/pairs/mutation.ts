import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { callApi, type Caller, inParallel } from '../dataset';
import { type BenchContext, measurePair, readPeaks, recordPair, resetPeaks } from '../harness';
import { closedLoop, type LoadClient, sampleOf } from '../load';
import { median, type Target } from '../stats';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { TRANSITIONS_PER_RUN } from '../../workflows/taskEntity';
import { type BenchEngine, ECHO_TASK_QUEUE } from '../system';
import { webhookDeliveryRuns } from './webhookRuns';
import {
  ENDPOINT_COST_CONCURRENCY,
  ENDPOINT_COST_VARIANT,
  subscribeWebhooks,
  type WebhookBench,
} from './webhooks';

/**
 * The dev server keeps history in SQLite in one process, so its echo is cheaper than the server's and the fixed cost
 * of ours weighs more against it: p50 within 2.5× there, 2× on Temporal's own server.
 */
export const mutationTargets = (engine: BenchEngine): Target[] => [
  { metric: 'p50', bound: 'max', value: engine === 'server' ? 2 : 2.5 },
  { metric: 'p99', bound: 'max', value: 3 },
];

/** 503s a setup request (not a measured one) is retried through: Temporal's deadline passes often on a loaded machine. */
const SETUP_RETRIES = 10;
/** Workflows (tasks, topics, echo workflows) each client owns and cycles through. */
const PER_CLIENT = 8;
export const MUTATION_CONCURRENCY = [1, 32];
const MAX_CLIENTS = Math.max(...MUTATION_CONCURRENCY);

const echoWorkflowId = (n: number) => `bench-echo-${n}`;

/** Closed-loop clients over owned subjects: client i owns subjects i·k … i·k + k − 1 and cycles them. */
function ownedClients<S>(subjects: readonly S[], make: (own: readonly S[]) => LoadClient) {
  return (index: number) => make(subjects.slice(index * PER_CLIENT, (index + 1) * PER_CLIENT));
}

export interface MutationSubjects {
  /** Math tasks nobody else writes to, with their current versions. */
  mathTasks: string[];
  /** Genomics topics nobody else writes to. */
  topics: string[];
  campaignId: string;
  /** A math task with no workflow yet, for the one-workflow sequence. */
  oneTask: string;
  /** Run the pairs again with one endpoint per service subscribed to the mutation's event (`--webhooks`). */
  webhooks?: boolean;
}

/**
 * Mutation pairs: A = an Update echo on running workflows behind a bare route; B = a math workflow action and
 * a genomics decision override through the API. Every client owns its subjects and tracks their versions
 * (or decisions), so no request is refused as stale.
 */
export async function mutationPairs(ctx: BenchContext, subjects: MutationSubjects): Promise<void> {
  const { system, people, log } = ctx;
  const needed = MAX_CLIENTS * PER_CLIENT;
  if (subjects.mathTasks.length < needed || subjects.topics.length < needed)
    throw new Error(`the mutation pair needs ${needed} tasks and topics`);

  // Echo workflows: started once; they continue-as-new on their own like the task workflows.
  await inParallel(
    Array.from({ length: needed }, (_, i) => i),
    16,
    async (i) => {
      await system.temporal.workflow.start('benchEchoWorkflow', {
        workflowId: echoWorkflowId(i),
        taskQueue: ECHO_TASK_QUEUE,
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    },
  );
  const echoIds = Array.from({ length: needed }, (_, i) => echoWorkflowId(i));

  const versions = new Map<string, number>(subjects.mathTasks.map((t) => [t, 0]));
  const decisions = new Map<string, string>();
  const owner = people.mathOwner;
  const genomicsOwner = people.genomicsOwner;
  const json = { 'content-type': 'application/json' };
  const auth = (caller: Caller) => ({ authorization: `Bearer ${caller.token}`, ...json });

  const mathRequest = (taskId: string, n: number) => ({
    method: 'POST' as const,
    path: `/api/math/tasks/${taskId}`,
    headers: { ...auth(owner), 'idempotency-key': `bench-${randomUUID()}` },
    body: JSON.stringify({
      version: versions.get(taskId),
      action: 'feedback',
      comment: `Bench feedback ${n}.`,
    }),
  });
  const onMathAnswer = (taskId: string, status: number, body: string) => {
    const parsed = JSON.parse(body) as { task?: { version: number }; current_version?: number };
    if (status === 200 && parsed.task) versions.set(taskId, parsed.task.version);
    else if (parsed.current_version !== undefined) versions.set(taskId, parsed.current_version);
  };
  const nextDecision = (topic: string) => (decisions.get(topic) === 'READY' ? 'MINOR_REPAIR' : 'READY');
  const genomicsRequest = (topic: string, n: number) => ({
    method: 'POST' as const,
    path: `/api/v1/topics/${topic}/decision`,
    headers: { ...auth(genomicsOwner), 'idempotency-key': `bench-${randomUUID()}` },
    body: JSON.stringify({
      expectedDecision: decisions.get(topic),
      decision: nextDecision(topic),
      campaignId: subjects.campaignId,
      reason: `Bench override ${n}.`,
    }),
  });
  const onGenomicsAnswer = (topic: string, sent: string, status: number, body: string) => {
    if (status === 200) decisions.set(topic, sent);
    else {
      const current = (JSON.parse(body) as { current_decision?: string }).current_decision;
      if (current) decisions.set(topic, current);
    }
  };

  // Update-with-start starts each workflow on its first update: do that before measuring.
  log('mutation: starting the task workflows of the clients');
  await inParallel(subjects.mathTasks.slice(0, needed), 16, async (taskId) => {
    const request = mathRequest(taskId, 0);
    const answer = await fetch(`${system.apiUrl}${request.path}`, request);
    onMathAnswer(taskId, answer.status, await answer.text());
  });
  // An override needs a decision to override: a reviewer is assigned and submits READY_AS_IS first.
  await inParallel(subjects.topics.slice(0, needed), 16, async (topic) => {
    const assigned = await callApi<{ assignmentId: string }>(
      system.apiUrl,
      genomicsOwner,
      'PUT',
      `/api/v1/topics/${topic}/reviewer`,
      { reviewerId: people.genomicsReviewer.memberId, instructions: 'Benchmark review.', dueAt: null },
      SETUP_RETRIES,
    );
    if (assigned.status !== 200)
      throw new Error(`assign ${topic}: ${assigned.status} ${JSON.stringify(assigned.body)}`);
    const reviewed = await callApi(
      system.apiUrl,
      people.genomicsReviewer,
      'POST',
      `/api/v1/topics/${topic}/reviews`,
      {
        assignmentId: assigned.body.assignmentId,
        verdict: 'READY_AS_IS',
        body: 'Ready as is (benchmark).',
      },
      SETUP_RETRIES,
    );
    if (reviewed.status !== 200)
      throw new Error(`review ${topic}: ${reviewed.status} ${JSON.stringify(reviewed.body)}`);
    decisions.set(topic, 'READY');
  });

  /** Counted runs from the start: an abandoned update would still commit and leave its client stale. */
  const FIRST_PER_CLIENT = 4;
  const echoSide = (connections: number) =>
    closedLoop(
      {
        url: system.baselineUrl,
        connections,
        client: ownedClients(echoIds, (own) => {
          let n = 0;
          return {
            next: () => ({
              method: 'POST',
              path: `/bare/echo/${own[n % own.length]}`,
              headers: json,
              body: JSON.stringify({ n: n++, at: Date.now() }),
            }),
          };
        }),
      },
      FIRST_PER_CLIENT,
    );
  const mathSide = (connections: number) =>
    closedLoop(
      {
        url: system.apiUrl,
        connections,
        client: ownedClients(subjects.mathTasks, (own) => {
          let n = 0;
          let current = own[0];
          return {
            next: () => {
              current = own[n % own.length];
              return mathRequest(current, n++);
            },
            onResponse: (status, body) => onMathAnswer(current, status, body),
          };
        }),
      },
      FIRST_PER_CLIENT,
    );
  const genomicsSide = (connections: number) =>
    closedLoop(
      {
        url: system.apiUrl,
        connections,
        client: ownedClients(subjects.topics, (own) => {
          let n = 0;
          let current = own[0];
          let sent = '';
          return {
            next: () => {
              current = own[n % own.length];
              sent = nextDecision(current);
              return genomicsRequest(current, n++);
            },
            onResponse: (status, body) => onGenomicsAnswer(current, sent, status, body),
          };
        }),
      },
      FIRST_PER_CLIENT,
    );

  // The backlog of one B side is delivered before the next A side starts, or it would slow the A side instead.
  const settled =
    <S>(webhooks: WebhookBench | undefined, side: (seconds: number) => Promise<S>) =>
    async (seconds: number): Promise<S> => {
      const sample = await side(seconds);
      await webhooks?.drain();
      return sample;
    };
  const measureMutations = async (webhooks?: WebhookBench) => {
    const suffix = webhooks ? ' + 1 webhook endpoint' : '';
    const measured = (label: string, load: () => Promise<unknown>) =>
      webhooks ? webhooks.measure(label, load) : load();
    const mutations = [
      ['math action', mathSide],
      ['genomics override', genomicsSide],
    ] as const;
    for (const connections of MUTATION_CONCURRENCY) {
      for (const [variant, side] of mutations) {
        await measured(`${variant} @${connections}`, () =>
          measurePair(ctx, {
            pair: 'mutation',
            variant: `${variant}${suffix}`,
            concurrency: connections,
            targets: mutationTargets(system.engine),
            a: echoSide(connections),
            b: settled(webhooks, side(connections)),
          }),
        );
      }
    }
  };
  await measureMutations();
  if (subjects.webhooks) {
    // The same pairs with an endpoint subscribed: B/A beside the rows above is the cost to the mutation.
    const webhooks = await subscribeWebhooks(ctx);
    try {
      await measureMutations(webhooks);
      // The endpoint's cost, side by side: the same math actions with the endpoint unsubscribed from their event (A)
      // and subscribed (B), round after round, so a machine that slows between two pairs does not count as cost.
      const unsubscribed = mathSide(ENDPOINT_COST_CONCURRENCY);
      const subscribed = mathSide(ENDPOINT_COST_CONCURRENCY);
      await measurePair(ctx, {
        pair: 'mutation',
        variant: ENDPOINT_COST_VARIANT,
        concurrency: ENDPOINT_COST_CONCURRENCY,
        targets: [{ metric: 'p50', bound: 'max', value: 1.1 }],
        a: async (seconds) => {
          await webhooks.subscribe('math', false);
          return unsubscribed(seconds);
        },
        b: settled(webhooks, async (seconds) => {
          await webhooks.subscribe('math', true);
          return subscribed(seconds);
        }),
      });
    } finally {
      await webhooks.stop();
    }
    ctx.webhookRuns = await webhookDeliveryRuns(ctx);
  }

  // History events each mutation adds to its workflow, ours vs echo: the median distance between consecutive
  // accepted updates in one run (runs continue as new every TRANSITIONS_PER_RUN, so updates are sent until the
  // current run holds at least HISTORY_UPDATES of them).
  const HISTORY_UPDATES = 8;
  const eventsPerUpdate = async (workflowId: string, send: (n: number) => Promise<void>) => {
    const acceptedEventIds = async () =>
      ((await system.temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [])
        .filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes)
        .map((event) => Number(String(event.eventId)));
    let accepted: number[] = [];
    for (let n = 0; accepted.length < HISTORY_UPDATES && n < 4 * TRANSITIONS_PER_RUN; n++) {
      await send(n);
      accepted = await acceptedEventIds();
    }
    return median(accepted.slice(1).map((id, i) => id - accepted[i]));
  };
  /** A reused keep-alive socket the server has just closed fails a POST; the same request is safe to resend. */
  const fetchRetrying = async (url: string, init: RequestInit) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(url, init);
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  };
  const sendVia = async (
    request: { path: string } & RequestInit,
    onAnswer: (s: number, b: string) => void,
  ) => {
    const answer = await fetchRetrying(`${system.apiUrl}${request.path}`, request);
    const body = await answer.text();
    // Checked before the body is parsed: a refusal's status says more than a parse error of its body.
    if (!answer.ok)
      throw new Error(`history count: ${request.path} answered ${answer.status} ${body.slice(0, 300)}`);
    onAnswer(answer.status, body);
  };
  const echoId = echoIds[needed - 1];
  const taskId = subjects.mathTasks[needed - 1];
  const topic = subjects.topics[needed - 1];
  const history = await measureHistory().catch((error: unknown) => {
    const cause = (error as { cause?: unknown })?.cause;
    log(`  history count failed: ${String(error)}${cause ? ` (${String(cause)})` : ''}`);
    return null;
  });
  async function measureHistory() {
    return {
      // The echo update goes from the bench's own client: what is counted is history, not the transport.
      echo: await eventsPerUpdate(echoId, async (n) => {
        await system.temporal.workflow.getHandle(echoId).executeUpdate('echo', { args: [{ n }] });
      }),
      'math action': await eventsPerUpdate(mathTaskWorkflowId(taskId), (n) =>
        sendVia(mathRequest(taskId, n), (status, body) => onMathAnswer(taskId, status, body)),
      ),
      'genomics override': await eventsPerUpdate(genomicsTaskWorkflowId(topic), (n) => {
        const sent = nextDecision(topic);
        return sendVia(genomicsRequest(topic, n), (status, body) =>
          onGenomicsAnswer(topic, sent, status, body),
        );
      }),
    };
  }
  if (history) {
    ctx.notes.push(
      `mutation: history events per update (median between accepted updates in one run): ` +
        `echo ${history.echo}, math action ${history['math action']}, genomics override ${history['genomics override']}`,
    );
    log(`  history events per update: ${JSON.stringify(history)}`);
    ctx.historyEventsPerUpdate = history;
  }

  await oneWorkflowSequence(ctx, subjects.oneTask);
}

/**
 * Updates one after another on ONE task workflow, past many continues-as-new: the latency of the first 20 vs
 * those from the 200th on must stay flat (history growth would show here), and the first update of each new
 * run is shown apart. Compared with the same sequence of echo updates on one fresh echo workflow.
 */
async function oneWorkflowSequence(ctx: BenchContext, taskId: string): Promise<void> {
  const { system, people, plan, log } = ctx;
  log(`mutation: ${plan.oneTaskUpdates} updates in a row on task ${taskId}`);
  resetPeaks(ctx);
  const echoId = `bench-echo-one-${randomUUID()}`;
  await system.temporal.workflow.start('benchEchoWorkflow', {
    workflowId: echoId,
    taskQueue: ECHO_TASK_QUEUE,
  });
  const echo: number[] = [];
  const ours: number[] = [];
  let version = 0;
  const startedA = performance.now();
  for (let i = 0; i < plan.oneTaskUpdates; i++) {
    const t0 = performance.now();
    const answer = await fetch(`${system.baselineUrl}/bare/echo/${echoId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: i }),
    });
    await answer.text();
    if (!answer.ok) throw new Error(`echo update ${i + 1}: ${answer.status}`);
    echo.push(performance.now() - t0);
  }
  const wallA = (performance.now() - startedA) / 1000;
  await sleep(200);
  const startedB = performance.now();
  for (let i = 0; i < plan.oneTaskUpdates; i++) {
    const answer = await callApi<{ task: { version: number } }>(
      system.apiUrl,
      people.mathOwner,
      'POST',
      `/api/math/tasks/${taskId}`,
      { version, action: 'feedback', comment: `Update ${i + 1} in a row.` },
      3,
    );
    if (answer.status !== 200)
      throw new Error(`update ${i + 1} of ${taskId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    version = answer.body.task.version;
    ours.push(answer.ms);
  }
  const wallB = (performance.now() - startedB) / 1000;
  const window = (values: number[], from: number, to: number) => median(values.slice(from - 1, to));
  const n = plan.oneTaskUpdates;
  const byWindow = (values: number[]) => ({
    'p50 of updates 1–20': window(values, 1, 20),
    'p50 of updates 200+': window(values, 200, n),
    // Update k (from 0) is the first of a new run when k is a multiple of the run length.
    [`p50 of each run's first update (continue-as-new every ${TRANSITIONS_PER_RUN})`]: median(
      values.filter((_, k) => k > 0 && k % TRANSITIONS_PER_RUN === 0),
    ),
  });
  const extra = { updates: n, echo: byWindow(echo), ours: byWindow(ours) };
  log(`  one workflow: ${JSON.stringify(extra)}`);
  recordPair(ctx, {
    pair: 'mutation',
    variant: `one workflow, updates 200+ vs 1–20`,
    concurrency: 1,
    targets: [],
    rounds: [
      {
        a: { ...sampleOf(ours.slice(0, 20), wallB), throughput: Number.NaN },
        b: { ...sampleOf(ours.slice(199), wallB), throughput: Number.NaN },
      },
    ],
    rss: readPeaks(ctx),
    extra: { ...extra, wallSeconds: { echo: wallA, ours: wallB } },
  });
}
