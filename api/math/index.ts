import type { ServiceDefinition } from '../kernel/operation';
import { sessionOperations } from './session/operations';
import { taskOperations } from './tasks/operations';

/** The math review API, mounted under /api. */
export const mathService: ServiceDefinition = {
  name: 'math',
  title: 'Referee math review API',
  version: '1.0.0',
  operations: [...sessionOperations, ...taskOperations],
};
