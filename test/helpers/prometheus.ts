import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/ports';

/** Debian's Prometheus (the `prometheus` package; .ci/run installs it). */
export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';
export const prometheusInstalled = (): boolean => existsSync(PROMETHEUS_BIN);

export interface RunningPrometheus {
  url: string;
  /** The value of an instant query that returns one sample (NaN stays NaN); null when it returns none. */
  scalar(expression: string): Promise<number | null>;
  /** Resolves once every target is up and was scraped at least once. */
  waitForTargets(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once every target has been scraped again after now (so what was done before is in the TSDB). */
  waitForFreshScrape(timeoutMs?: number): Promise<void>;
  /** The alerts pending or firing now (the rule files' alerts), by name and state. */
  alerts(): Promise<Array<{ name: string; state: string; labels: Record<string, string> }>>;
  /** The loaded rules' evaluation health (`ok`, `err`, `unknown`) by rule name, and their last errors. */
  ruleHealth(): Promise<Array<{ name: string; health: string; lastError?: string }>>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus on a free loopback port, scraping `targets` (job name → metrics URLs) every second and
 * evaluating `ruleFiles` (absolute paths) every second.
 */
export async function startPrometheus(
  targets: Record<string, string[]>,
  options: { ruleFiles?: string[] } = {},
): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'referee-prometheus-'));
  const jobs = Object.entries(targets).map(([job, urls]) => {
    const hosts = urls.map((url) => new URL(url).host);
    return `  - job_name: ${job}\n    metrics_path: /metrics\n    static_configs:\n      - targets: [${hosts.map((h) => `'${h}'`).join(', ')}]`;
  });
  const rules = (options.ruleFiles ?? []).map((file) => `  - '${file}'`).join('\n');
  const config =
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n` +
    (rules ? `rule_files:\n${rules}\n` : '') +
    `scrape_configs:\n${jobs.join('\n')}\n`;
  await writeFile(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const api = async (path: string): Promise<any> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: any; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error}`);
    return body.data;
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`Prometheus: ${what} not within ${timeoutMs} ms\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const targetsNow = async () =>
    ((await api('/api/v1/targets')).activeTargets ?? []) as Array<{ health: string; lastScrape: string }>;

  await until('ready', async () => (await fetch(`${url}/-/ready`)).ok, 30_000);
  return {
    url,
    async scalar(expression) {
      const data = await api(`/api/v1/query?query=${encodeURIComponent(expression)}`);
      const result = data.result as Array<{ value: [number, string] }>;
      if (result.length === 0) return null;
      if (result.length > 1) throw new Error(`${expression} returned ${result.length} series`);
      return Number(result[0].value[1]);
    },
    async waitForTargets(count, timeoutMs = 30_000) {
      await until(
        `${count} targets up`,
        async () => {
          const active = await targetsNow();
          return active.length === count && active.every((t) => t.health === 'up');
        },
        timeoutMs,
      );
    },
    async waitForFreshScrape(timeoutMs = 10_000) {
      const after = Date.now();
      await until(
        'a scrape of every target',
        async () =>
          (await targetsNow()).every((t) => t.health === 'up' && Date.parse(t.lastScrape) > after + 50),
        timeoutMs,
      );
    },
    async alerts() {
      const data = await api('/api/v1/alerts');
      return (data.alerts as Array<{ labels: Record<string, string>; state: string }>).map((a) => ({
        name: a.labels.alertname,
        state: a.state,
        labels: a.labels,
      }));
    },
    async ruleHealth() {
      const data = await api('/api/v1/rules');
      return (
        data.groups as Array<{ rules: Array<{ name: string; health: string; lastError?: string }> }>
      ).flatMap((group) =>
        group.rules.map((r) => ({ name: r.name, health: r.health, lastError: r.lastError || undefined })),
      );
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
