import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { taskUpdateId } from '../workflows/ids';
import { type Caller, generateBundle, opsImport, type People } from '../bench/dataset';
import type { SystemAccess } from '../bench/system';

/** How long one logical request keeps retrying 503s and dropped connections before it counts as failed. */
export const REQUEST_GIVE_UP_MS = 180_000;
/** Deadline of one HTTP attempt: longer than the API's own Temporal call deadline, which answers 503. */
const ATTEMPT_TIMEOUT_MS = 60_000;
/** The math actions a task cycles through: actions and decisions, each one transition. */
const MATH_CYCLE = ['assign', 'feedback', 'verdict', 'reopen'] as const;

export interface Counters {
  /** Logical requests (a retry of the same Idempotency-Key is not a new one). */
  requests: number;
  acknowledged: number;
  /** HTTP attempts answered 503, and of those without a Retry-After header. */
  unavailable: number;
  unavailableWithoutRetryAfter: number;
  /** Attempts whose connection died (an API process killed while it held it); retried like a 503. */
  connectionsDropped: number;
  /** 409 idempotency_request_in_progress answers: a retry found the key still claimed. */
  inProgressRetried: number;
  /** 4xx answers (a state the loop did not expect), and 5xx other than 503: both are reported. */
  rejected: number;
  serverErrors: number;
  /** Logical requests still unanswered after {@link REQUEST_GIVE_UP_MS}. */
  gaveUp: number;
  byKind: Record<string, number>;
}

export interface Acknowledged {
  service: 'math' | 'genomics';
  subject: string;
  updateId: string;
  /** When the client was told (ms since the epoch). */
  at: number;
}

/** One HTTP attempt of a logical request, for a drill that measures per fault (drills/networkReport.ts). */
export interface Attempt {
  /** The logical request's number in the run (its retries share it) and its kind (`read`, `action`, …). */
  request: number;
  kind: string;
  startedAt: number;
  endedAt: number;
  /** The answer's status; 0 when the connection died or the attempt's own deadline passed first. */
  status: number;
  retryAfter: boolean;
}

/** The load: closed loops over their own share of tasks and topics, a ledger of every acknowledged change. */
export class Load {
  readonly counters: Counters = {
    requests: 0,
    acknowledged: 0,
    unavailable: 0,
    unavailableWithoutRetryAfter: 0,
    connectionsDropped: 0,
    inProgressRetried: 0,
    rejected: 0,
    serverErrors: 0,
    gaveUp: 0,
    byKind: {},
  };
  readonly acknowledged: Acknowledged[] = [];
  readonly imported: Array<{ runId: string; tasks: number }> = [];
  downloadsCorrupt = 0;
  private logged = 0;

  constructor(
    private readonly apiUrl: string,
    private readonly people: People,
    private readonly log: (line: string) => void,
    private readonly onAttempt?: (attempt: Attempt) => void,
  ) {}

  private note(line: string) {
    if (this.logged < 40) {
      this.logged += 1;
      this.log(line);
    }
  }

  /**
   * One logical request: a 503 (checked for Retry-After) or a dropped connection is retried with the same
   * Idempotency-Key after the advertised delay, until an answer or {@link REQUEST_GIVE_UP_MS}.
   */
  async send(
    kind: string,
    caller: Caller,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; bytes: Buffer; idempotencyKey?: string } | null> {
    const idempotencyKey = body === undefined ? undefined : `chaos-${randomUUID()}`;
    const headers: Record<string, string> = { authorization: `Bearer ${caller.token}` };
    if (idempotencyKey) {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey;
    }
    this.counters.requests += 1;
    this.counters.byKind[kind] = (this.counters.byKind[kind] ?? 0) + 1;
    const request = this.counters.requests;
    const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
    for (;;) {
      let response: Response;
      let bytes: Buffer;
      const startedAt = Date.now();
      const attempted = (status: number, retryAfter = false) =>
        this.onAttempt?.({ request, kind, startedAt, endedAt: Date.now(), status, retryAfter });
      try {
        response = await fetch(`${this.apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        bytes = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        attempted(0);
        this.counters.connectionsDropped += 1;
        this.note(`${method} ${path}: connection dropped (${(error as Error).name}); retried`);
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(500);
        continue;
      }
      attempted(response.status, response.headers.get('retry-after') !== null);
      if (response.status === 503 || response.status === 429) {
        const retryAfter = Number(response.headers.get('retry-after'));
        if (response.status === 503) {
          this.counters.unavailable += 1;
          if (!(retryAfter >= 0) || response.headers.get('retry-after') === null) {
            this.counters.unavailableWithoutRetryAfter += 1;
            this.note(`${method} ${path}: 503 without Retry-After: ${bytes.toString('utf8').slice(0, 200)}`);
          }
        }
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(Math.min(Math.max(retryAfter || 1, 0.2), 5) * 1000);
        continue;
      }
      if (response.status >= 500) {
        this.counters.serverErrors += 1;
        this.note(`${method} ${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(1000);
        continue;
      }
      if (response.status === 409 && bytes.toString('utf8').includes('idempotency_request_in_progress')) {
        // The request under this key is held by a process that died with it; its claim lapses (docs/limits.md).
        this.counters.inProgressRetried += 1;
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(1000);
        continue;
      }
      if (response.status >= 400) {
        this.counters.rejected += 1;
        this.note(`${method} ${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
        return { status: response.status, bytes, idempotencyKey };
      }
      return { status: response.status, bytes, idempotencyKey };
    }
  }

  private giveUp(method: string, path: string): null {
    this.counters.gaveUp += 1;
    this.note(`${method} ${path}: no answer within ${REQUEST_GIVE_UP_MS / 1000} s`);
    return null;
  }

  private acknowledge(service: 'math' | 'genomics', subject: string, caller: Caller, idempotencyKey: string) {
    this.counters.acknowledged += 1;
    this.acknowledged.push({
      service,
      subject,
      updateId: taskUpdateId(service, caller.memberId, idempotencyKey),
      at: Date.now(),
    });
  }

  /** One math transition on `taskId` (the next of {@link MATH_CYCLE}); the version is read first. */
  async mathAction(taskId: string, step: number): Promise<boolean> {
    const { mathOwner, mathReviewer } = this.people;
    const read = await this.send('read', mathOwner, 'GET', `/api/math/tasks/${taskId}`);
    if (read?.status !== 200) return false;
    const { version } = JSON.parse(read.bytes.toString('utf8')) as { version: number };
    const action = MATH_CYCLE[step % MATH_CYCLE.length];
    const body =
      action === 'assign'
        ? { version, action, assignee_id: mathReviewer.memberId }
        : action === 'verdict'
          ? {
              version,
              action,
              decision: step % 8 === 2 ? 'ACCEPTED' : 'NEEDS_REVISION',
              comment: 'Chaos verdict.',
            }
          : { version, action, comment: `Chaos ${action} ${step}.` };
    const done = await this.send(
      action === 'verdict' ? 'decision' : 'action',
      mathOwner,
      'POST',
      `/api/math/tasks/${taskId}`,
      body,
    );
    if (done?.status !== 200) return false;
    this.acknowledge('math', taskId, mathOwner, done.idempotencyKey!);
    return true;
  }

  /**
   * `clients` loops share the tasks and topics (each its own, so two loops never race on one version): math
   * actions and verdicts, genomics reviewer set and removal, verified downloads and list reads.
   */
  async loop(
    index: number,
    clients: number,
    deadline: number,
    plan: { tasks: string[]; topics: string[]; artifacts: Map<string, string> },
  ): Promise<void> {
    const share = <T>(items: T[]) => items.filter((_, i) => i % clients === index);
    const tasks = share(plan.tasks);
    const topics = share(plan.topics);
    const artifactIds = [...plan.artifacts.keys()];
    const mathSteps = new Map<string, number>();
    const reviewed = new Set<string>();
    const { mathOwner, genomicsOwner, genomicsReviewer } = this.people;
    for (let n = 0; Date.now() < deadline; n += 1) {
      const pick = n % 5;
      if (pick === 0 || pick === 1) {
        const task = tasks[Math.floor(n / 5) % tasks.length];
        const step = mathSteps.get(task) ?? 0;
        if (await this.mathAction(task, step)) mathSteps.set(task, step + 1);
      } else if (pick === 2 && topics.length > 0) {
        const topic = topics[Math.floor(n / 5) % topics.length];
        const assign = !reviewed.has(topic);
        const done = await this.send('review', genomicsOwner, 'PUT', `/api/v1/topics/${topic}/reviewer`, {
          reviewerId: assign ? genomicsReviewer.memberId : null,
          instructions: 'Chaos review.',
          dueAt: null,
        });
        if (done?.status === 200) {
          this.acknowledge('genomics', topic, genomicsOwner, done.idempotencyKey!);
          if (assign) reviewed.add(topic);
          else reviewed.delete(topic);
        }
      } else if (pick === 3) {
        const artifact = artifactIds[n % artifactIds.length];
        const got = await this.send('download', mathOwner, 'GET', `/api/math/artifacts/${artifact}/download`);
        if (got?.status === 200) {
          this.counters.acknowledged += 1;
          if (createHash('sha256').update(got.bytes).digest('hex') !== plan.artifacts.get(artifact)) {
            this.downloadsCorrupt += 1;
            this.note(`download ${artifact}: bytes differ from the recorded sha256`);
          }
        }
      } else {
        const got = await this.send('read', mathOwner, 'GET', '/api/math/tasks?page_size=50&sort=updated');
        if (got?.status === 200) this.counters.acknowledged += 1;
      }
    }
  }

  /**
   * Imports through the ops CLI, one after another until the deadline: a small generated math run each. An import
   * that fails (its dependency down) is run again, as an operator would, until it succeeds; then it counts.
   */
  async runImports(access: SystemAccess, dataDir: string, deadline: number): Promise<void> {
    for (let n = 1; Date.now() < deadline; n += 1) {
      const runId = `chaos-import-${n}`;
      const bundle = await generateBundle({
        service: 'math',
        tasks: 12,
        out: join(dataDir, 'bundles', runId),
        seed: 100 + n,
        runId,
      });
      this.counters.requests += 1;
      this.counters.byKind.import = (this.counters.byKind.import ?? 0) + 1;
      const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
      for (;;) {
        try {
          await opsImport(access, bundle.dir);
          this.counters.acknowledged += 1;
          this.imported.push({ runId, tasks: bundle.counts.tasks });
          break;
        } catch (error) {
          this.note(
            `import ${runId} failed, run again: ${(error as Error).message.split('\n').slice(-2).join(' ')}`,
          );
          if (Date.now() > giveUpAt) {
            this.counters.gaveUp += 1;
            break;
          }
          await sleep(2000);
        }
      }
      await sleep(5000);
    }
  }
}
