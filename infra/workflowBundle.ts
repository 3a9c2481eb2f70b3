import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './paths';

/**
 * Builds the workers' workflow bundle into `outFile` with scripts/bundleWorkflows.ts in a child process, so that
 * neither the launcher nor any worker keeps the bundler's memory, and every worker (and every restart of one)
 * loads the same code in a second. Rejects with the child's output when bundling fails.
 */
export async function buildWorkflowBundle(outFile: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'scripts', 'bundleWorkflows.ts'), outFile],
    {
      cwd: projectRoot,
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
