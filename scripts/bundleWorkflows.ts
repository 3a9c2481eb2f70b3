import { rename, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowVariant } from '../deployment/buildId';
import { PRELOADED_WORKFLOW_MODULES, WORKFLOWS_PATH } from '../deployment/workflowBundle';

type WebpackConfig = Parameters<
  NonNullable<Parameters<typeof bundleWorkflowCode>[0]['webpackConfigHook']>
>[0];

/** Defines REFEREE_WORKFLOW_VARIANT in the bundle, with the webpack the SDK's bundler runs. */
function withVariant(config: WebpackConfig, variant: string): WebpackConfig {
  const webpackPath = require.resolve('webpack', { paths: [require.resolve('@temporalio/worker')] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DefinePlugin } = require(webpackPath) as {
    DefinePlugin: new (definitions: Record<string, string>) => NonNullable<WebpackConfig['plugins']>[number];
  };
  return {
    ...config,
    plugins: [
      ...(config.plugins ?? []),
      new DefinePlugin({ REFEREE_WORKFLOW_VARIANT: JSON.stringify(variant) }),
    ],
  };
}

/**
 * Bundles workflows/ into one file for the workers (REFEREE_WORKFLOW_BUNDLE), in a process of its own: the bundler's
 * memory ends with this process instead of staying in every worker's resident set.
 *
 *   npx tsx scripts/bundleWorkflows.ts <out.js>
 */
async function main(out: string | undefined): Promise<void> {
  if (!out) throw new Error('usage: tsx scripts/bundleWorkflows.ts <out.js>');
  const variant = workflowVariant();
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    preloadModules: PRELOADED_WORKFLOW_MODULES,
    // A test variant (workflows/variant.ts) is compiled in; its build ID names it too (deployment/buildId.ts).
    webpackConfigHook: variant ? (config) => withVariant(config, variant) : undefined,
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
