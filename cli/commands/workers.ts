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
  summary: 'Make a worker build current, move running workflows onto it and wait until the old build drains.',
  details: [
    'The build (default: the build ID of the code in this folder) must have workers polling. Task and webhook',
    'endpoint workflows pinned to the old build continue as new onto it; imports finish where they started.',
    'Once it returns, nothing is pinned to the old build and its workers can stop.',
  ],
  options: {
    build: { type: 'string', value: 'build-id', summary: 'The build to roll out.' },
    ...rolloutOptions,
  },
  positionals: [],
  run: async (ctx, { options }) => (await import('../handlers/workers')).rolloutCommand(ctx, options),
});

export const workersRollback = defineCommand({
  name: 'workers rollback',
  summary: 'Roll back to the previous worker build (or --build): a rollout to it, workflows moved back.',
  details: ['The previous build is the newest version other than the current one that still has workers.'],
  options: {
    build: { type: 'string', value: 'build-id', summary: 'The build to return to.' },
    'drain-timeout': rolloutOptions['drain-timeout'],
  },
  positionals: [],
  run: async (ctx, { options }) => (await import('../handlers/workers')).rollbackCommand(ctx, options),
});
