#!/usr/bin/env -S node --max-old-space-size=1024
'use strict';
// The `referee` command. It runs the ops CLI compiled into one file (dist/referee.js, built on first use
// and rebuilt here when a source file is newer), because compiling TypeScript on every call through tsx cost
// seconds. Where the build cannot be written or esbuild is missing, it falls back to tsx. The shebang's V8
// flags are CLI_NODE_FLAGS (infra/processes.ts); the fallback passes on the flags this process was given.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { buildCli, cliBuildIsCurrent, CLI_BUNDLE, PROJECT_ROOT } = require('./buildCli');

function compiled() {
  if (cliBuildIsCurrent()) return true;
  try {
    buildCli();
    return true;
  } catch (error) {
    process.stderr.write(`referee: running through tsx (could not build ${CLI_BUNDLE}: ${error.message})\n`);
    return false;
  }
}

if (compiled()) {
  require(CLI_BUNDLE)
    .main(process.argv.slice(2))
    .then((code) => process.exit(code));
} else {
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
  process.exit(result.status ?? 1);
}
