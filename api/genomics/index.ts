import type { ServiceDefinition } from '../kernel/operation';
import { sessionOperations } from './session/operations';

/** The genomics workspace API v1, mounted under /api/v1. */
export const genomicsService: ServiceDefinition = {
  name: 'genomics',
  title: 'Referee genomics workspace API',
  version: '1.0.0',
  operations: [...sessionOperations],
};
