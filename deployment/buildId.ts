import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type * as Esbuild from 'esbuild';
import { projectRoot } from './projectRoot';

/**
 * The files a worker runs, by path from the root: every project file the worker process (`worker.ts`) and its
 * workflow code (`workflows/index.ts`) import, followed through relative imports (packages stay out: their
 * versions are `package-lock.json`, which is listed too).
 */
export function workerInputs(root: string = projectRoot): string[] {
  // Loaded here, not at the top: the image's worker reads its ID from the build and has no esbuild (a dev dependency).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildSync } = require('esbuild') as typeof Esbuild;
  const { metafile } = buildSync({
    entryPoints: [join(root, 'worker.ts'), join(root, 'workflows', 'index.ts')],
    absWorkingDir: root,
    bundle: true,
    write: false,
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
    metafile: true,
    outdir: join(root, '.build-id'),
  });
  const inputs = Object.keys(metafile.inputs).map((input) => relative(root, join(root, input)));
  return [...new Set([...inputs, 'package-lock.json'])].sort();
}

/** The build ID of a set of files: a digest of each path and its bytes, in path order. */
export function buildIdOf(root: string, files: readonly string[], variant = ''): string {
  const hash = createHash('sha256');
  if (variant) hash.update(`variant\0${variant}\0`);
  for (const file of [...files].sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return `b${hash.digest('hex').slice(0, 16)}`;
}

/**
 * The workflow variant a build carries (docs/workflow-evolution.md, "The rollout drill"): empty for the code as
 * written; `REFEREE_WORKFLOW_VARIANT` names a test variant compiled into the workflow bundle and mixed into the ID.
 */
export const workflowVariant = (env: NodeJS.ProcessEnv = process.env): string =>
  env.REFEREE_WORKFLOW_VARIANT ?? '';

/**
 * The build ID of the worker this checkout runs (docs/workflow-evolution.md): the same code gives the same ID on
 * every machine, a change to any workflow, activity or other file the worker imports (or to a dependency) gives a
 * new one, and a file the worker does not import (documentation, the API, the CLI) changes nothing.
 */
export function workerBuildId(root: string = projectRoot, env: NodeJS.ProcessEnv = process.env): string {
  return buildIdOf(root, workerInputs(root), workflowVariant(env));
}

/** Where the image's build writes the worker's ID (the Dockerfile): the image holds the build, not the sources. */
export const BUILT_WORKER_BUILD_ID = join(projectRoot, 'dist', 'worker.build-id');

const computed = new Map<string, string>();

/** {@link workerBuildId} of this checkout, computed once per process (a test starts many workers). */
export function currentWorkerBuildId(env: NodeJS.ProcessEnv = process.env): string {
  const key = workflowVariant(env);
  if (!key && existsSync(BUILT_WORKER_BUILD_ID)) return readFileSync(BUILT_WORKER_BUILD_ID, 'utf8').trim();
  if (!computed.has(key)) computed.set(key, workerBuildId(projectRoot, env));
  return computed.get(key)!;
}
