import { SERVICES } from '../../entities/types';

/** `--service`, where a command may work on one service or both. */
export const serviceFilter = {
  type: 'string',
  value: 'math|genomics',
  choices: SERVICES,
  summary: 'Only this service (default: both).',
} as const;

/** `--service`, where a command works on one service. */
export const serviceRequired = {
  type: 'string',
  value: 'math|genomics',
  choices: SERVICES,
  required: true,
  summary: 'The service whose data the command works on.',
} as const;

/** `--restart`, for the operator tools that resume an interrupted run from its checkpoint. */
export const restart = {
  type: 'boolean',
  summary: 'Start from the first item instead of resuming an interrupted run.',
} as const;
