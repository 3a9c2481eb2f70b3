'use strict';
// Builds the ops CLI into one CommonJS file with esbuild (dependencies stay external, so they load from
// node_modules as usual; modules the CLI imports with import() are only initialised when a command needs them).
const fs = require('node:fs');
const path = require('node:path');

const PROJECT_ROOT = path.resolve(__dirname, '..');
// dist/ is one level below the root, like infra/ and scripts/: `projectRoot` (infra/paths.ts) stays right.
const CLI_BUNDLE = path.join(PROJECT_ROOT, 'dist', 'referee.js');
// The project files the bundle was built from (esbuild's own list), so the staleness check covers every folder
// the CLI draws on, including one added later, and nothing it does not.
const CLI_INPUTS = path.join(PROJECT_ROOT, 'dist', 'referee.inputs.json');

/** The project files compiled into the bundle, relative to the project root, read from its esbuild metafile. */
function bundleInputs() {
  return JSON.parse(fs.readFileSync(CLI_INPUTS, 'utf8'));
}

/** True when dist/referee.js exists and neither a file it was built from nor this script is newer or gone. */
function cliBuildIsCurrent() {
  try {
    const built = fs.statSync(CLI_BUNDLE).mtimeMs;
    const sources = [__filename, ...bundleInputs().map((input) => path.join(PROJECT_ROOT, input))];
    return sources.every((source) => fs.statSync(source).mtimeMs <= built);
  } catch {
    return false;
  }
}

function buildCli() {
  const esbuild = require('esbuild');
  const temporary = `${CLI_BUNDLE}.${process.pid}.tmp`;
  const { metafile } = esbuild.buildSync({
    entryPoints: [path.join(PROJECT_ROOT, 'cli', 'main.ts')],
    outfile: temporary,
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    metafile: true,
  });
  // The list first, then the bundle: a bundle is never newer than a list that does not describe it.
  fs.writeFileSync(`${CLI_INPUTS}.${process.pid}.tmp`, JSON.stringify(Object.keys(metafile.inputs).sort()));
  fs.renameSync(`${CLI_INPUTS}.${process.pid}.tmp`, CLI_INPUTS);
  // Renamed into place, so a concurrent call never loads a half-written file.
  fs.renameSync(temporary, CLI_BUNDLE);
}

module.exports = { buildCli, bundleInputs, cliBuildIsCurrent, CLI_BUNDLE, PROJECT_ROOT };

if (require.main === module) buildCli();
