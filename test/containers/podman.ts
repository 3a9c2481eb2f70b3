import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../infra/paths';

const run = promisify(execFile);

/** podman with the project's settings for this kind of machine (docker/podman/containers.conf). */
export const podmanEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(projectRoot, 'docker', 'podman', 'containers.conf'),
});

export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run('podman', args, { env: podmanEnv(), timeout: timeoutMs, maxBuffer: 64 << 20 });
  return stdout.trim();
}

/** Runs a command to its end, its output kept; resolves with the exit code rather than throwing. */
export function runToEnd(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? podmanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Builds the image as `docker/build-image.sh` does (base first, then the Dockerfile from a clean clone). */
export async function buildImage(tag: string): Promise<{ ms: number; log: string }> {
  const built = await runToEnd(join(projectRoot, 'docker', 'build-image.sh'), [tag], {
    timeoutMs: 40 * 60_000,
  });
  if (built.code !== 0)
    throw new Error(`docker/build-image.sh failed (${built.code}):\n${built.stderr.slice(-4000)}`);
  return { ms: built.ms, log: built.stderr };
}
