import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './metrics';

/** An import the worker is running, as its import record shows it. */
export interface RunningImportProgress {
  service: string;
  importId: string;
  filesPlanned: number;
  /** Files stored so far (uploaded, or found already in the bucket). */
  filesStored: number;
  /** Records of the bundle by type (tasks, topics, artifacts, ...), written together when the files are in. */
  records: Record<string, number>;
}

/** What the worker reads from PostgreSQL when it is scraped (the worker's activities own the SQL). */
export interface WorkerStateSources {
  runningImports(): Promise<RunningImportProgress[]>;
  /** `storage_audit` rows by kind (object_missing, object_mismatch, object_orphaned). */
  storageFindings(): Promise<Array<{ kind: string; count: number }>>;
  /** `projection_repairs` rows by service (projections `referee reconcile --repair` rewrote). */
  projectionRepairs(): Promise<Array<{ service: string; count: number }>>;
  /** Each service's newest finished import: when it finished and whether it FAILED. */
  latestImports(): Promise<Array<{ service: string; finishedAt: Date; failed: boolean }>>;
  /** Live API keys per service that expire within `days` and were used in the last as many days. */
  keysExpiringSoon(days: number): Promise<Array<{ service: string; count: number }>>;
}

/** How far ahead `referee_api_keys_expiring_soon` looks, and how recent a key's use must be to count. */
export const KEY_EXPIRY_NOTICE_DAYS = 7;

/**
 * The worker's own metrics, beside the Temporal SDK's: activity durations and outcomes (through an activity
 * interceptor, so no activity knows about metrics), projection writes, and — read from PostgreSQL at scrape
 * time — import progress and the findings of the operator checks.
 */
export class WorkerMetrics {
  private readonly activities: Histogram<'activity' | 'outcome'>;
  private readonly projectionWrites: Counter<'service' | 'outcome'>;

  constructor(
    registry: Registry,
    private readonly options: {
      /** Activity types that write a task's projection, and the service each belongs to. */
      projectionActivities: Readonly<Record<string, string>>;
      sources?: WorkerStateSources;
      onError?: (error: unknown) => void;
    },
  ) {
    const registers = [registry];
    this.activities = new Histogram({
      name: 'referee_activity_duration_seconds',
      help: 'Activity executions on this worker, by activity type and outcome (completed, failed, cancelled).',
      labelNames: ['activity', 'outcome'],
      buckets: [...LATENCY_BUCKETS_SECONDS, 60, 300],
      registers,
    });
    this.projectionWrites = new Counter({
      name: 'referee_projection_writes_total',
      help: 'Task projections written by the persistence activities, by service and outcome (committed, failed).',
      labelNames: ['service', 'outcome'],
      registers,
    });
    const sources = options.sources;
    if (!sources) return;
    const report = (error: unknown) => options.onError?.(error);
    const importGauge = (name: string, help: string, labelNames: string[] = []) =>
      new Gauge({ name, help, labelNames: ['service', 'import_id', ...labelNames], registers });
    const filesPlanned = importGauge(
      'referee_import_files_planned',
      'Files a running import stores, per running import (the series ends with the import).',
    );
    const filesStored = importGauge(
      'referee_import_files_stored',
      'Files a running import has stored so far (uploaded, or found already stored).',
    );
    const recordsPlanned = importGauge(
      'referee_import_records_planned',
      'Records of a running import by type (tasks, topics, ...); they are written in one transaction once its files are stored.',
      ['record'],
    );
    new Gauge({
      name: 'referee_imports_running',
      help: 'Imports running now, by service.',
      labelNames: ['service'],
      registers,
      async collect() {
        const running = await sources.runningImports().catch((error: unknown) => {
          report(error);
          return null;
        });
        if (!running) return;
        this.reset();
        filesPlanned.reset();
        filesStored.reset();
        recordsPlanned.reset();
        for (const service of ['math', 'genomics']) this.set({ service }, 0);
        for (const run of running) {
          const labels = { service: run.service, import_id: run.importId };
          this.inc({ service: run.service });
          filesPlanned.set(labels, run.filesPlanned);
          filesStored.set(labels, run.filesStored);
          for (const [record, count] of Object.entries(run.records))
            recordsPlanned.set({ ...labels, record }, count);
        }
      },
    });
    new Gauge({
      name: 'referee_storage_findings',
      help: 'Stored objects recorded as missing, altered or orphaned (storage_audit), by kind, from downloads and referee verify-storage.',
      labelNames: ['kind'],
      registers,
      async collect() {
        const rows = await sources.storageFindings().catch((error: unknown) => {
          report(error);
          return null;
        });
        if (!rows) return;
        for (const kind of ['object_missing', 'object_mismatch', 'object_orphaned']) this.set({ kind }, 0);
        for (const row of rows) this.set({ kind: row.kind }, row.count);
      },
    });
    const latestImports = () =>
      sources.latestImports().catch((error: unknown) => {
        report(error);
        return null;
      });
    new Gauge({
      name: 'referee_import_latest_failed',
      help: "1 when the service's newest finished import failed, 0 when it succeeded or changed nothing.",
      labelNames: ['service'],
      registers,
      async collect() {
        const rows = await latestImports();
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set({ service: row.service }, row.failed ? 1 : 0);
      },
    });
    new Gauge({
      name: 'referee_import_latest_finished_timestamp_seconds',
      help: "When the service's newest finished import finished (Unix time): the freshness of its data.",
      labelNames: ['service'],
      registers,
      async collect() {
        const rows = await latestImports();
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set({ service: row.service }, row.finishedAt.getTime() / 1000);
      },
    });
    new Gauge({
      name: 'referee_api_keys_expiring_soon',
      help: `Live API keys that expire within ${KEY_EXPIRY_NOTICE_DAYS} days and were used in the last ${KEY_EXPIRY_NOTICE_DAYS}, by service.`,
      labelNames: ['service'],
      registers,
      async collect() {
        const rows = await sources.keysExpiringSoon(KEY_EXPIRY_NOTICE_DAYS).catch((error: unknown) => {
          report(error);
          return null;
        });
        if (!rows) return;
        for (const service of ['math', 'genomics']) this.set({ service }, 0);
        for (const row of rows) this.set({ service: row.service }, row.count);
      },
    });
    new Gauge({
      name: 'referee_projection_repairs',
      help: 'Task projections referee reconcile --repair rewrote from their workflow (projection_repairs), by service.',
      labelNames: ['service'],
      registers,
      async collect() {
        const rows = await sources.projectionRepairs().catch((error: unknown) => {
          report(error);
          return null;
        });
        if (!rows) return;
        for (const service of ['math', 'genomics']) this.set({ service }, 0);
        for (const row of rows) this.set({ service: row.service }, row.count);
      },
    });
  }

  /** The activity interceptor that times every activity and counts projection writes. */
  readonly activityInterceptor: ActivityInterceptorsFactory = (context) => ({
    inbound: {
      execute: async (input, next) => {
        const activity = context.info.activityType;
        const started = performance.now();
        let outcome = 'completed';
        try {
          return await next(input);
        } catch (error) {
          outcome = error instanceof CancelledFailure ? 'cancelled' : 'failed';
          throw error;
        } finally {
          this.activities.observe({ activity, outcome }, (performance.now() - started) / 1000);
          const service = this.options.projectionActivities[activity];
          if (service)
            this.projectionWrites.inc({ service, outcome: outcome === 'completed' ? 'committed' : 'failed' });
        }
      },
    },
  });
}

/**
 * The Temporal SDK core runtime's Prometheus exporter (`Runtime.install({ telemetryOptions })`), with names in
 * Prometheus' conventions: `temporal_` prefix, durations in seconds with the unit in the name, `_total` counters.
 * It listens on a loopback port of its own; the worker's `/metrics` serves its text after ours.
 */
export function sdkMetricsTelemetry(bindAddress: string) {
  return {
    metrics: {
      metricPrefix: 'temporal_',
      prometheus: {
        bindAddress,
        countersTotalSuffix: true,
        unitSuffix: true,
        useSecondsForDurations: true,
      },
    },
  };
}
