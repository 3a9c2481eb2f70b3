import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client as PgClient } from 'pg';
import { createDatabase, dropDatabase } from '../../infra/postgres';
import { projectRoot } from '../../infra/paths';
import { ensureNamespace } from '../../infra/temporalDevServer';
import { createS3Client } from '../../storage/objectStore';
import { cleanEnv, type NpmStart, referee, startNpmStart } from '../helpers/npmStart';
import { prometheusInstalled, type RunningPrometheus, startPrometheus } from '../helpers/prometheus';
import { readTestEnv } from '../helpers/testEnv';

/**
 * The metrics as an operator meets them: `npm start` (on the shared test services) prints each process's metrics
 * URL, a real Prometheus scrapes them, and actions in both services move the counters and histograms by exactly
 * what was done, as Prometheus' own query API reports it.
 */
const describeWithPrometheus = prometheusInstalled() ? describe : describe.skip;
if (!prometheusInstalled())
  process.stderr.write('metrics.test.ts skipped: no /usr/bin/prometheus (apt-get install prometheus)\n');

jest.setTimeout(240_000);

/** The metric names a section of docs/observability.md lists (`<!-- metrics:api -->` … `<!-- /metrics:api -->`). */
async function documentedMetrics(section: 'api' | 'worker' | 'temporal'): Promise<string[]> {
  const doc = await readFile(join(projectRoot, 'docs', 'observability.md'), 'utf8');
  const start = doc.indexOf(`<!-- metrics:${section} -->`);
  const end = doc.indexOf(`<!-- /metrics:${section} -->`);
  if (start < 0 || end < start) throw new Error(`docs/observability.md has no metrics:${section} section`);
  return [...doc.slice(start, end).matchAll(/^\| `((?:referee|temporal)_[a-z0-9_]+)`/gm)].map((m) => m[1]);
}

/** The metric families a process exports (its `# HELP` lines). */
async function exportedMetrics(url: string): Promise<string[]> {
  const text = await (await fetch(url)).text();
  return [...text.matchAll(/^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) /gm)].map((m) => m[1]);
}

describeWithPrometheus('metrics of a running system, through Prometheus', () => {
  const env = readTestEnv();
  const suffix = randomBytes(4).toString('hex');
  const database = `${env.templateDatabase}_metrics${suffix}`;
  let system: NpmStart;
  let prometheus: RunningPrometheus;
  let metricsUrls: Record<string, string>;
  let keys: { math: string; genomics: string };
  let db: PgClient;

  beforeAll(async () => {
    const namespace = `metrics-${suffix}`;
    const bucket = `referee-metrics-${suffix}`;
    const [databaseUrl] = await Promise.all([
      createDatabase(env.pgAdminUrl, database, env.templateDatabase),
      ensureNamespace(env.temporalAddress, namespace),
    ]);
    const s3 = createS3Client({
      endpoint: env.s3Endpoint,
      region: 'us-east-1',
      accessKeyId: env.s3AccessKeyId,
      secretAccessKey: env.s3SecretAccessKey,
      forcePathStyle: true,
    });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    s3.destroy();
    system = await startNpmStart({
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `referee-metrics-${suffix}`,
      S3_ENDPOINT: env.s3Endpoint,
      S3_ACCESS_KEY_ID: env.s3AccessKeyId,
      S3_SECRET_ACCESS_KEY: env.s3SecretAccessKey,
      S3_BUCKET: bucket,
      REFEREE_WORKFLOW_BUNDLE: env.workflowBundlePath,
    });
    const token = (service: string) => {
      const match = new RegExp(`^\\s+${service}\\s+(\\S+)$`, 'm').exec(system.output());
      if (!match) throw new Error(`npm start printed no ${service} admin key:\n${system.output()}`);
      return match[1];
    };
    keys = { math: token('math'), genomics: token('genomics') };
    metricsUrls = (await system.connection()).metrics ?? {};
    prometheus = await startPrometheus(
      { 'referee-api': [metricsUrls.api], 'referee-worker': [metricsUrls.worker] },
      { ruleFiles: [join(projectRoot, 'observability', 'prometheus', 'alerts.yml')] },
    );
    await prometheus.waitForTargets(2);
    db = new PgClient({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await prometheus?.stop();
    await system?.stop();
    await dropDatabase(env.pgAdminUrl, database).catch(() => undefined);
  });

  it('prints each process’s metrics URL and records it in the connection file', () => {
    expect(Object.keys(metricsUrls).sort()).toEqual(['api', 'worker']);
    for (const url of Object.values(metricsUrls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(system.output()).toContain(`Metrics          API ${metricsUrls.api}`);
    expect(system.output()).toContain(`worker ${metricsUrls.worker}`);
  });

  it('exports every metric docs/observability.md lists, and documents every referee_ metric it exports', async () => {
    for (const [process, url] of Object.entries(metricsUrls)) {
      const documented = await documentedMetrics(process as 'api' | 'worker');
      const exported = await exportedMetrics(url);
      expect(documented.length).toBeGreaterThan(5);
      expect(documented.filter((name) => !exported.includes(name))).toEqual([]);
      expect(exported.filter((name) => name.startsWith('referee_') && !documented.includes(name))).toEqual(
        [],
      );
    }
    // The worker's /metrics carries the Temporal SDK's own metrics, and both carry Node's process metrics.
    const worker = await exportedMetrics(metricsUrls.worker);
    const sdk = await documentedMetrics('temporal');
    expect(sdk.length).toBeGreaterThan(5);
    expect(sdk.filter((name) => !worker.includes(name))).toEqual([]);
    expect(worker).toContain('process_cpu_seconds_total');
    expect(await exportedMetrics(metricsUrls.api)).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts the actions of both services exactly, with finite latency quantiles, in the API and the worker', async () => {
    const value = async (expression: string) =>
      (await prometheus.scalar(`(${expression}) or vector(0)`)) ?? 0;
    const probes = {
      mathActions:
        'sum(referee_http_requests_total{operation="math.applyTaskAction",method="POST",status="200"})',
      genomicsActions:
        'sum(referee_http_requests_total{service="genomics",operation="genomics.setReviewer"})',
      updates: 'sum(referee_temporal_call_duration_seconds_count{outcome="ok"})',
      replays: 'sum(referee_idempotent_replays_total{service="genomics",operation="genomics.setReviewer"})',
      malformed: 'sum(referee_auth_failures_total{service="math",reason="malformed"})',
      persisted:
        'sum(referee_activity_duration_seconds_count{activity="persistMathTransition",outcome="completed"})',
      mathWrites: 'sum(referee_projection_writes_total{service="math",outcome="committed"})',
      genomicsWrites: 'sum(referee_projection_writes_total{service="genomics",outcome="committed"})',
    };
    const read = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(probes).map(async ([k, e]) => [k, await value(e)] as const)),
      ) as Record<keyof typeof probes, number>;
    const before = await read();

    const member = async (service: string, identity: string) =>
      (
        await db.query('SELECT id::text FROM members WHERE service = $1 AND identity_id = $2', [
          service,
          identity,
        ])
      ).rows[0].id as string;
    const base = system.baseUrl;
    const call = (path: string, init: { method: string; token: string; body?: unknown; key?: string }) =>
      fetch(`${base}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${init.token}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.key ? { 'idempotency-key': init.key } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });

    // Four math actions: the demo task assigned back and forth.
    const reviewers = [await member('math', 'idp|rui'), await member('math', 'idp|sofia')];
    const MATH_ACTIONS = 4;
    for (let i = 0; i < MATH_ACTIONS; i += 1) {
      const task = (await (
        await call('/api/math/tasks/demo-q1-a', { method: 'GET', token: keys.math })
      ).json()) as {
        version: number;
      };
      const response = await call('/api/math/tasks/demo-q1-a', {
        method: 'POST',
        token: keys.math,
        body: { version: task.version, action: 'assign', assignee_id: reviewers[i % 2] },
      });
      expect(response.status).toBe(200);
    }
    // One genomics action, sent twice under one Idempotency-Key: the second is a replay, not a second update.
    const { rows } = await db.query('SELECT uid FROM genomics_topics ORDER BY id LIMIT 1');
    const key = `metrics-test-${suffix}-0001`;
    const reviewer = {
      reviewerId: await member('genomics', 'idp|rui'),
      instructions: 'Check the splice calls.',
      dueAt: null,
    };
    const path = `/api/v1/topics/${encodeURIComponent(rows[0].uid)}/reviewer`;
    const first = await call(path, { method: 'PUT', token: keys.genomics, body: reviewer, key });
    expect(first.status).toBe(200);
    const again = await call(path, { method: 'PUT', token: keys.genomics, body: reviewer, key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // A credential that is no API key.
    expect((await call('/api/auth/session', { method: 'GET', token: 'not-a-key' })).status).toBe(401);

    await prometheus.waitForFreshScrape();
    const after = await read();
    expect({
      mathActions: after.mathActions - before.mathActions,
      genomicsActions: after.genomicsActions - before.genomicsActions,
      updates: after.updates - before.updates,
      replays: after.replays - before.replays,
      malformed: after.malformed - before.malformed,
      persisted: after.persisted - before.persisted,
      mathWrites: after.mathWrites - before.mathWrites,
      genomicsWrites: after.genomicsWrites - before.genomicsWrites,
    }).toEqual({
      mathActions: MATH_ACTIONS,
      genomicsActions: 2,
      updates: MATH_ACTIONS + 1,
      replays: 1,
      malformed: 1,
      persisted: MATH_ACTIONS,
      mathWrites: MATH_ACTIONS,
      genomicsWrites: 1,
    });

    const median = async (bucket: string, selector: string) =>
      prometheus.scalar(`histogram_quantile(0.5, sum by (le) (${bucket}{${selector}}))`);
    for (const p50 of [
      await median('referee_http_request_duration_seconds_bucket', 'operation="math.applyTaskAction"'),
      await median('referee_temporal_call_duration_seconds_bucket', 'outcome="ok"'),
      await median('referee_activity_duration_seconds_bucket', 'activity="persistMathTransition"'),
    ]) {
      expect(Number.isFinite(p50)).toBe(true);
      expect(p50).toBeGreaterThan(0);
    }
    // The SDK's own histograms moved too: the worker ran workflow tasks for these updates.
    expect(
      await value('sum(temporal_workflow_task_execution_latency_seconds_count{job="referee-worker"})'),
    ).toBeGreaterThan(0);
    // State read from PostgreSQL at scrape time: no import running, no storage finding.
    expect(await value('sum(referee_imports_running)')).toBe(0);
    expect(await value('sum(referee_storage_findings)')).toBe(0);
  });

  it('referee status shows the API’s request rate and p99 of the last minute, read from its metrics', async () => {
    const REQUESTS = 30;
    for (let i = 0; i < REQUESTS; i += 1) {
      const response = await fetch(`${system.baseUrl}/api/auth/session`, {
        headers: { authorization: `Bearer ${keys.math}` },
      });
      expect(response.status).toBe(200);
    }
    const env = cleanEnv({ REFEREE_DATA_DIR: system.dataDir });

    // Under a loaded machine a dependency probe may time out (exit code 1, the report under error.report):
    // the request figures are there either way.
    const asJson = await referee(['status', '--json'], env);
    const document = JSON.parse(asJson.stdout) as {
      ok: boolean;
      status?: { requests: Record<string, any> };
      error?: { report: { requests: Record<string, any> } };
    };
    const { requests } = document.ok ? document.status! : document.error!.report;
    expect(requests.processes).toEqual([
      {
        process: 'api',
        url: metricsUrls.api,
        up: true,
        requestsPerSecond: expect.any(Number),
        p99Seconds: expect.any(Number),
      },
    ]);
    // At least the requests just sent, over the 60 s window (the earlier tests' requests may count too).
    expect(requests.requestsPerSecond).toBeGreaterThanOrEqual(REQUESTS / 60);
    expect(requests.requestsPerSecond).toBe(requests.processes[0].requestsPerSecond);
    expect(requests.p99SecondsAtMost).toBe(requests.processes[0].p99Seconds);
    expect(requests.p99SecondsAtMost).toBeGreaterThan(0);

    const asText = await referee(['status'], env);
    // The same figures as text (on a loaded machine the minute may have passed by now: then no p99).
    expect(asText.stdout).toMatch(/^requests, last minute: \d+\.\d\d\/s, p99 (\d+\.\d+ ms|none)$/m);
    expect(asText.stdout).toMatch(/^ {2}api +\d+\.\d\d\/s, p99 (\d+\.\d+ ms|none)$/m);
  });

  it('evaluates every alerting rule without error; the pollers alert fires while the worker is stopped and clears after', async () => {
    const firing = async (name: string) =>
      (await prometheus.alerts()).some((alert) => alert.name === name && alert.state === 'firing');
    const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline)
          throw new Error(`${what} not within ${timeoutMs} ms: ${JSON.stringify(await prometheus.alerts())}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    // Every rule has been evaluated against the live series, and none failed.
    await until(
      'every rule evaluated',
      async () => (await prometheus.ruleHealth()).every((rule) => rule.health !== 'unknown'),
      30_000,
    );
    const health = await prometheus.ruleHealth();
    expect(health.length).toBeGreaterThanOrEqual(10);
    expect(health.filter((rule) => rule.health !== 'ok')).toEqual([]);
    // The series the rules read are there: the worker's workflow pollers, the API's dependency probes.
    expect(
      await prometheus.scalar('sum(temporal_num_pollers{poller_type=~"workflow_task|sticky_workflow_task"})'),
    ).toBeGreaterThan(0);
    expect(await prometheus.scalar('min(referee_dependency_up)')).toBe(1);
    expect(
      await prometheus.scalar('max(referee_db_pool_max_connections{job="referee-worker"})'),
    ).toBeGreaterThan(0);
    expect(await firing('RefereeNoWorkflowPollers')).toBe(false);

    // Stop the worker (SIGSTOP: the supervisor sees no exit, so it restarts nothing) and wait out the rule's `for`.
    const { processes } = await system.connection();
    const worker = processes.worker!;
    process.kill(worker, 'SIGSTOP');
    try {
      await until('RefereeNoWorkflowPollers firing', () => firing('RefereeNoWorkflowPollers'), 120_000);
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    await until(
      'RefereeNoWorkflowPollers cleared',
      async () => !(await firing('RefereeNoWorkflowPollers')),
      60_000,
    );
    await prometheus.waitForTargets(2);
  }, 240_000);
});
