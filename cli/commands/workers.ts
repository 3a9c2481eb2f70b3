import { defineCommand } from '../kernel/command';

/*
 * Rollouts of worker builds (docs/workflow-evolution.md, "Rolling out a build"): the workers of the task queue are
 * versions of its Worker Deployment, one per build ID.
 */

const rolloutOptions = {
  ramp: {
    type: 'integer',
    value: 'percent',
    min: 1,
    max: 99,
    unit: '%',
    summary: 'Before promoting, send this share of new workflows to the build for --ramp-for.',
  },
  'ramp-for': {
    type: 'integer',
    value: 'seconds',
    min: 1,
    max: 24 * 3600,
    unit: 's',
    default: 60,
    summary: 'How long the ramp lasts.',
  },
  'drain-timeout': {
    type: 'integer',
    value: 'minutes',
    min: 1,
    max: 24 * 60,
    unit: 'minutes',
    default: 15,
    summary: 'How long the old build may take until nothing is pinned to it.',
  },
} as const;

export const workersRollout = defineCommand({
  name: 'workers rollout',
  summary:
    'Roll out a worker build: start its workers beside the old ones, make it current, move running workflows ' +
    'onto it, wait until the old build drains and stop its workers.',
  details: [
    'Against the system npm start or npm run start:cluster runs, the launcher does every step: it builds the',
    'checkout (or starts --build, one that system ran before), starts as many workers of it as it runs, and',
    "stops the old build's workers once nothing is pinned to it. Against another system (compose, workers of",
    "your own) the new build's workers must poll already and stopping the old ones is yours; the command does",
    'the rest. Task and webhook endpoint workflows pinned to the old build continue as new onto the new one;',
    'imports and exports finish where they started. Run again after an interruption, it moves what is left.',
  ],
  options: {
    build: {
      type: 'string',
      value: 'build-id',
      summary: 'The build to roll out (default: the build ID of the code in this folder).',
    },
    ...rolloutOptions,
  },
  positionals: [],
  run: async (ctx, { options }) => (await import('../handlers/workers')).rolloutCommand(ctx, options),
});

export const workersRollback = defineCommand({
  name: 'workers rollback',
  summary: 'Roll back to the previous worker build (or --build): a rollout to it, workflows moved back.',
  details: [
    'Under npm start or npm run start:cluster the previous build is the one current before (its workers start',
    "again from the workflow code the launcher kept, and the current build's stop once drained); elsewhere it",
    'is the newest version other than the current one that still has workers.',
  ],
  options: {
    build: { type: 'string', value: 'build-id', summary: 'The build to return to.' },
    'drain-timeout': rolloutOptions['drain-timeout'],
  },
  positionals: [],
  run: async (ctx, { options }) => (await import('../handlers/workers')).rollbackCommand(ctx, options),
});
