import { defineCommand } from '../kernel/command';
import { restart, serviceFilter } from './options';

/*
 * The operator tools (docs/operator-tools.md): each exits with 1 when it finds something wrong; reconcile and
 * verify-storage resume an interrupted run from their checkpoint unless --restart.
 */

export const reconcile = defineCommand({
  name: 'reconcile',
  summary:
    "Compare every task's projection with its workflow (the source of truth) (docs/operator-tools.md).",
  details: [
    '--repair rewrites each diverged projection from its workflow, one audited row in projection_repairs each.',
    'Exit code 1 while a difference remains.',
  ],
  options: {
    service: serviceFilter,
    repair: { type: 'boolean', summary: 'Rewrite diverged projections from their workflows.' },
    restart,
  },
  positionals: [],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/operator')).reconcileCommand(ctx, input),
});

export const verifyStorage = defineCommand({
  name: 'verify-storage',
  summary:
    'Read every stored object and check its size and SHA-256; report missing, altered and orphaned ones.',
  details: ['Findings are also written to storage_audit. Exit code 1 when anything is wrong.'],
  options: {
    rate: {
      type: 'number',
      value: 'MiB/s',
      positive: true,
      unit: 'MiB/s',
      summary: 'Read at most this fast.',
    },
    'orphan-grace': {
      // 0 means no grace: every unnamed object counts; at most a week.
      type: 'integer',
      value: 'minutes',
      min: 0,
      max: 7 * 24 * 60,
      unit: 'minutes',
      default: 15,
      summary: 'An object named by no row and modified within this many minutes is not orphaned (yet).',
    },
    restart,
  },
  positionals: [],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/operator')).verifyStorageCommand(ctx, input),
});

export const status = defineCommand({
  name: 'status',
  summary: 'Each dependency up or down, the schema version, workflow counts, imports, keys expiring soon.',
  details: [
    'Also the engine (Temporal dev server or server, its persistence, history shards, pollers), the processes the',
    "connection file lists, and each API process's request rate and p99 over the last minute (from its metrics).",
    'Exit code 1 when something is down or the schema is behind.',
  ],
  options: {},
  positionals: [],
  run: async (ctx) => (await import('../handlers/operator')).status(ctx),
});
