#!/usr/bin/env -S node --max-old-space-size=1024
'use strict';
// The `referee` command. It runs the ops CLI compiled into one file (dist/referee.js, built on first use and
// rebuilt here when a source file is newer: bin/build.js), because compiling TypeScript on every call through tsx
// cost seconds. Where the build cannot be written or esbuild is missing, it falls back to tsx. The shebang's V8
// flags are CLI_NODE_FLAGS (infra/processes.ts); the fallback passes on the flags this process was given.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { ensureBuilt, outputOf, PROJECT_ROOT } = require('./build');
const { requireSupportedNode } = require('./runtime');

async function compiled() {
  try {
    await ensureBuilt(['referee']);
    return true;
  } catch (error) {
    process.stderr.write(
      `referee: running through tsx (could not build dist/referee.js: ${error.message})\n`,
    );
    return false;
  }
}

async function run() {
  requireSupportedNode('referee');
  // Each command is a new process: V8's compile cache (in the OS's temporary folder) spares it compiling the
  // CLI's modules again.
  require('node:module').enableCompileCache?.();
  if (!(await compiled())) return runFromSource();
  // Stack traces name the .ts lines (the bundle's source map).
  process.setSourceMapsEnabled(true);
  return require(outputOf(PROJECT_ROOT, 'referee')).main(process.argv.slice(2));
}

function runFromSource() {
  const result = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      '--import',
      'tsx',
      path.join(PROJECT_ROOT, 'cli', 'main.ts'),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

void run().then((code) => process.exit(code));
