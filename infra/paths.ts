import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../deployment/projectRoot';

// The development tools take the repository root from here, with the data and tools folders.
export { projectRoot };

/** Where local state (databases, object store, logs) lives: `REFEREE_DATA_DIR` or `<repo>/.referee`. */
export function dataDir(): string {
  const fromEnv = process.env.REFEREE_DATA_DIR;
  return fromEnv ? path.resolve(fromEnv) : path.join(projectRoot, '.referee');
}

/**
 * Where built Go tools are cached: `REFEREE_TOOLS_DIR` or `$XDG_CACHE_HOME/referee/tools`
 * (default `~/.cache/referee/tools`). Outside the clone, so every clone on the machine reuses the builds.
 */
export function toolsCacheDir(): string {
  const fromEnv = process.env.REFEREE_TOOLS_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(path.resolve(cacheHome), 'referee', 'tools');
}
