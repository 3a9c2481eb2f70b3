import path from 'node:path';

/**
 * Absolute path of the repository root: this file lives one folder below it, as each bundle in dist/ does. Here,
 * not in infra/, because the worker process finds its workflow sources and its built ID from it.
 */
export const projectRoot: string = path.resolve(__dirname, '..');
