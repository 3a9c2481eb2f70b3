import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { projectRoot } from '../../infra/paths';

/**
 * The operators' Grafana dashboard and Prometheus alerting rules (observability/grafana, observability/prometheus):
 * promtool checks the rules and runs their unit tests, every rule has a test and a runbook, and every series the
 * dashboard or a rule reads is one the processes export (the metrics docs/observability.md lists, which
 * test/integration/metrics.test.ts checks against a running system, or Node's standard process metrics).
 */
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';
const RULES_DIR = join(projectRoot, 'observability', 'prometheus');
const DASHBOARD = join(projectRoot, 'observability', 'grafana', 'referee.json');
const run = promisify(execFile);

/** Node's standard metrics the dashboard uses (prom-client's collectDefaultMetrics). */
const NODE_METRICS = [
  'process_resident_memory_bytes',
  'nodejs_heap_size_used_bytes',
  'nodejs_eventloop_lag_p99_seconds',
];

async function documentedMetrics(): Promise<Set<string>> {
  const doc = await readFile(join(projectRoot, 'docs', 'observability.md'), 'utf8');
  const names = new Set<string>(NODE_METRICS);
  for (const section of ['api', 'worker', 'temporal']) {
    const start = doc.indexOf(`<!-- metrics:${section} -->`);
    const end = doc.indexOf(`<!-- /metrics:${section} -->`);
    for (const m of doc.slice(start, end).matchAll(/^\| `((?:referee|temporal)_[a-z0-9_]+)`/gm))
      names.add(m[1]);
  }
  return names;
}

/** The metric names an expression reads (histogram series back to their family). */
const seriesOf = (expression: string): string[] =>
  [...expression.matchAll(/\b((?:referee|temporal|process|nodejs)_[a-z0-9_]+)/g)].map((m) =>
    m[1].replace(/_(bucket|count|sum)$/, ''),
  );

interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}

const rules = async (): Promise<Rule[]> => {
  const file = yaml.load(await readFile(join(RULES_DIR, 'alerts.yml'), 'utf8')) as {
    groups: Array<{ rules: Rule[] }>;
  };
  return file.groups.flatMap((group) => group.rules);
};

const withPromtool = existsSync(PROMTOOL) ? it : it.skip;
if (!existsSync(PROMTOOL))
  process.stderr.write(`promtool tests skipped: no ${PROMTOOL} (apt-get install prometheus)\n`);

withPromtool('promtool checks the rules', async () => {
  const { stdout } = await run(PROMTOOL, ['check', 'rules', 'alerts.yml'], { cwd: RULES_DIR });
  expect(stdout).toContain('SUCCESS');
});

withPromtool(
  'promtool runs the rules’ unit tests, and they pass',
  async () => {
    const { stdout } = await run(PROMTOOL, ['test', 'rules', 'alerts.test.yml'], { cwd: RULES_DIR });
    expect(stdout).toContain('SUCCESS');
  },
  60_000,
);

test('every rule has a summary, a description and a runbook, and a unit test where it fires', async () => {
  const tests = yaml.load(await readFile(join(RULES_DIR, 'alerts.test.yml'), 'utf8')) as {
    tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
  };
  const firing = new Set(
    tests.tests.flatMap((t) =>
      t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
    ),
  );
  const all = await rules();
  expect(all.length).toBeGreaterThanOrEqual(10);
  for (const rule of all) {
    expect([rule.alert, Object.keys(rule.annotations).sort()]).toEqual([
      rule.alert,
      ['description', 'runbook', 'summary'],
    ]);
    expect([rule.alert, firing.has(rule.alert)]).toEqual([rule.alert, true]);
  }
});

test('the rules and the Grafana dashboard read only series the processes export', async () => {
  const exported = await documentedMetrics();
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  const read = [
    ...(await rules()).map((rule) => ({ where: rule.alert, expr: rule.expr })),
    ...dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((t) => ({ where: panel.title, expr: t.expr })),
    ),
  ];
  expect(read.length).toBeGreaterThan(30);
  const unknown = read.flatMap(({ where, expr }) =>
    seriesOf(expr)
      .filter((name) => !exported.has(name))
      .map((name) => `${where}: ${name}`),
  );
  expect(unknown).toEqual([]);
});

test('the dashboard has a panel for each thing an operator watches', async () => {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
    panels: Array<{ targets?: Array<{ expr: string }> }>;
  };
  const series = new Set(dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => seriesOf(t.expr))));
  for (const name of [
    'referee_http_requests_total',
    'referee_http_request_duration_seconds',
    'referee_projection_writes_total',
    'referee_temporal_call_duration_seconds',
    'temporal_num_pollers',
    'temporal_workflow_task_schedule_to_start_latency_seconds',
    'referee_webhook_delivery_lag_seconds',
    'referee_webhook_endpoint_disabled',
    'referee_imports_running',
    'referee_db_pool_connections',
    'process_resident_memory_bytes',
  ])
    expect(series).toContain(name);
});
