/** Types of console/build.js (plain CommonJS, so `node console/build.js` runs without a compiler). */
export interface ConsoleManifest {
  fingerprint: string;
  builtAt: string;
  script: string;
  stylesheet: string;
  assets: Record<string, { type: string; bytes: number; gzipBytes: number; brotliBytes: number }>;
}
export const OUT_DIR: string;
export function buildConsole(outDir?: string): ConsoleManifest;
export function ensureConsoleBuilt(outDir?: string): ConsoleManifest;
export function consoleBuildIsCurrent(outDir?: string): boolean;
