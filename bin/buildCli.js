'use strict';
// Builds the ops CLI into one CommonJS file with esbuild (dependencies stay external, so they load from
// node_modules as usual; modules the CLI imports with import() are only initialised when a command needs them).
const fs = require('node:fs');
const path = require('node:path');

const PROJECT_ROOT = path.resolve(__dirname, '..');
// dist/ is one level below the root, like infra/ and scripts/: `projectRoot` (infra/paths.ts) stays right.
const CLI_BUNDLE = path.join(PROJECT_ROOT, 'dist', 'referee.js');
const SOURCE_DIRS = ['api', 'activities', 'entities', 'infra', 'scripts', 'storage', 'workflows'];

function newestSourceMtime() {
  let newest = fs.statSync(path.join(PROJECT_ROOT, 'config.ts')).mtimeMs;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(PROJECT_ROOT, dir));
  newest = Math.max(newest, fs.statSync(__filename).mtimeMs);
  return newest;
}

/** True when dist/referee.js exists and no source file is newer. */
function cliBuildIsCurrent() {
  try {
    return fs.statSync(CLI_BUNDLE).mtimeMs >= newestSourceMtime();
  } catch {
    return false;
  }
}

function buildCli() {
  const esbuild = require('esbuild');
  const temporary = `${CLI_BUNDLE}.${process.pid}.tmp`;
  esbuild.buildSync({
    entryPoints: [path.join(PROJECT_ROOT, 'scripts', 'ops.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // Renamed into place, so a concurrent call never loads a half-written file.
  fs.renameSync(temporary, CLI_BUNDLE);
}

module.exports = { buildCli, cliBuildIsCurrent, CLI_BUNDLE, PROJECT_ROOT };

if (require.main === module) buildCli();
