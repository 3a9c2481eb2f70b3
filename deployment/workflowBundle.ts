import { spawn } from 'node:child_process';
import { copyFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { tracingRequested } from '../observability/tracingRequested';
import { projectRoot } from './projectRoot';

/**
 * The entry module of every workflow the workers run; each worker's bundle is built from it. Named by its source
 * path, the same from source and from a compiled process in dist/ (the SDK's bundler compiles TypeScript).
 */
export const WORKFLOWS_PATH = join(projectRoot, 'workflows', 'index.ts');

/** The workflow bundle the build makes (bin/build.js, target workflow-bundle). */
export const BUILT_WORKFLOW_BUNDLE = join(projectRoot, 'dist', 'workflow-bundle.js');

/**
 * Modules a worker evaluates once, into the workflow sandbox's shared V8 context, instead of once per workflow
 * run: the SDK's workflow API and the workflow modules at `workflowsPath`. Otherwise every run (a task's first
 * update, every continue-as-new, every run replayed after its eviction from the cache) executes them again and
 * keeps its own copy while cached. Safe only for modules holding no state of a run at module scope (definitions,
 * activity proxies, read-only tables), which the SDK freezes once shared (`docs/operator-tools.md`, "Worker memory").
 */
export const workflowModulesToPreload = (workflowsPath: string): string[] => [
  '@temporalio/workflow',
  workflowsPath,
];

/** The preload of every bundle of `workflows/`, prebuilt or built by a worker at start. */
export const PRELOADED_WORKFLOW_MODULES = workflowModulesToPreload(WORKFLOWS_PATH);

/**
 * Builds the workers' workflow bundle into `outFile` with scripts/bundleWorkflows.ts in a child process, so that
 * neither the launcher nor any worker keeps the bundler's memory, and every worker (and every restart of one)
 * loads the same code in a second. Rejects with the child's output when bundling fails. `variant` builds a test
 * variant (workflows/variant.ts) instead of the code as written.
 */
export async function buildWorkflowBundle(outFile: string, variant?: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'scripts', 'bundleWorkflows.ts'), outFile],
    {
      cwd: projectRoot,
      // A test variant of the workflow code (workflows/variant.ts), compiled in; '' builds the code as written.
      env: variant === undefined ? process.env : { ...process.env, REFEREE_WORKFLOW_VARIANT: variant },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0)
    throw new Error(`bundling the workflows failed (exit ${code}): ${output.trim().slice(-2000)}`);
}

/** Whether `env` names the workers' bundle itself, or asks for traces (each worker bundles its own at start). */
export const bundleChosenByEnvironment = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(env.REFEREE_WORKFLOW_BUNDLE) || tracingRequested(env);

/**
 * Gives the workers a launch starts one prebuilt bundle: `<dir>/workflow-bundle.js`, named in `env`
 * (REFEREE_WORKFLOW_BUNDLE), unless `env` names a bundle already or asks for traces, when each worker bundles its own
 * with the OpenTelemetry workflow interceptors (docs/observability.md). `prebuilt` (the build's bundle) is copied
 * there, so a rebuild while the system runs never changes the workflow code its restarted workers load; without
 * it the bundle is built there.
 */
export async function shareWorkflowBundle(
  env: NodeJS.ProcessEnv,
  dir: string,
  prebuilt?: string,
): Promise<void> {
  if (bundleChosenByEnvironment(env)) return;
  const bundle = join(dir, 'workflow-bundle.js');
  if (prebuilt) {
    await copyFile(prebuilt, `${bundle}.partial`);
    await rename(`${bundle}.partial`, bundle);
  } else {
    await buildWorkflowBundle(bundle);
  }
  env.REFEREE_WORKFLOW_BUNDLE = bundle;
}
