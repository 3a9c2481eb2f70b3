import { rename, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PRELOADED_WORKFLOW_MODULES, WORKFLOWS_PATH } from '../infra/workflowBundle';

/**
 * Bundles workflows/ into one file for the workers (REFEREE_WORKFLOW_BUNDLE), in a process of its own: the bundler's
 * memory ends with this process instead of staying in every worker's resident set.
 *
 *   npx tsx scripts/bundleWorkflows.ts <out.js>
 */
async function main(out: string | undefined): Promise<void> {
  if (!out) throw new Error('usage: tsx scripts/bundleWorkflows.ts <out.js>');
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    preloadModules: PRELOADED_WORKFLOW_MODULES,
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  // Written beside its final name and renamed, so a worker never reads half a bundle.
  await writeFile(`${out}.partial`, code, { mode: 0o600 });
  await rename(`${out}.partial`, out);
  console.log(`bundled workflows/ into ${out} (${(code.length / 1024 / 1024).toFixed(1)} MiB)`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(`bundleWorkflows: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
