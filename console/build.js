'use strict';
// Builds the reviewer console (console/src, Preact) into dist/console with esbuild: hashed asset names, an
// index.html that loads them (no inline script, so the page runs under a strict CSP), gzip and brotli copies
// for the server to send as they are, and a manifest with a fingerprint of the inputs. Runs at install
// (postinstall), in `npm run build`, before `npm start` spawns the API, and in the tests' global setup; the
// API process only serves what this wrote. No network: esbuild, preact and uplot come from node_modules.
const { Buffer } = require('node:buffer');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const CONSOLE_ROOT = __dirname;
const SOURCE_DIR = path.join(CONSOLE_ROOT, 'src');
const PROJECT_ROOT = path.resolve(CONSOLE_ROOT, '..');
const OUT_DIR = path.join(PROJECT_ROOT, 'dist', 'console');
const MANIFEST = 'manifest.json';

const CONTENT_TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function sourceFiles(dir = SOURCE_DIR) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else files.push(full);
  }
  return files.sort();
}

/** SHA-256 over every input of the bundle: sources, this script, and the versions of esbuild, preact and uplot. */
function inputFingerprint() {
  const hash = crypto.createHash('sha256');
  for (const file of [...sourceFiles(), __filename]) {
    hash.update(path.relative(CONSOLE_ROOT, file));
    hash.update(fs.readFileSync(file));
  }
  hash.update(require('esbuild/package.json').version);
  hash.update(require('preact/package.json').version);
  hash.update(require('uplot/package.json').version);
  return hash.digest('hex');
}

function readManifest(outDir = OUT_DIR) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), 'utf8'));
  } catch {
    return null;
  }
}

/** True when dist/console holds a build of exactly the current sources. */
function consoleBuildIsCurrent(outDir = OUT_DIR) {
  const manifest = readManifest(outDir);
  return manifest !== null && manifest.fingerprint === inputFingerprint();
}

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function indexHtml(script, stylesheet) {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>Referee console</title>',
    '<link rel="icon" href="/console/favicon.svg" type="image/svg+xml">',
    `<link rel="stylesheet" href="/console/assets/${escapeAttribute(stylesheet)}">`,
    `<script type="module" src="/console/assets/${escapeAttribute(script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript>The Referee console needs JavaScript.</noscript></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Builds into a fresh folder beside dist/console and renames it into place, so a server reading the old
 * build never sees a half-written one and two builds at once leave one whole build.
 */
function buildConsole(outDir = OUT_DIR) {
  const esbuild = require('esbuild');
  const fingerprint = inputFingerprint();
  const result = esbuild.buildSync({
    entryPoints: [path.join(SOURCE_DIR, 'main.tsx')],
    bundle: true,
    write: false,
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const staging = `${outDir}.${process.pid}.${Date.now()}.tmp`;
  fs.mkdirSync(path.join(staging, 'assets'), { recursive: true });
  const assets = {};
  let script = null;
  let stylesheet = null;
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    const extension = path.extname(name);
    const bytes = Buffer.from(file.contents);
    const gzip = zlib.gzipSync(bytes, { level: 9 });
    const brotli = zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
    });
    fs.writeFileSync(path.join(staging, 'assets', name), bytes);
    fs.writeFileSync(path.join(staging, 'assets', `${name}.gz`), gzip);
    fs.writeFileSync(path.join(staging, 'assets', `${name}.br`), brotli);
    assets[name] = {
      type: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      bytes: bytes.length,
      gzipBytes: gzip.length,
      brotliBytes: brotli.length,
    };
    if (extension === '.js') script = name;
    if (extension === '.css') stylesheet = name;
  }
  if (!script || !stylesheet) throw new Error('console build produced no script or stylesheet');
  fs.writeFileSync(path.join(staging, 'index.html'), indexHtml(script, stylesheet));
  fs.writeFileSync(
    path.join(staging, MANIFEST),
    JSON.stringify({ fingerprint, builtAt: new Date().toISOString(), script, stylesheet, assets }, null, 2),
  );
  replaceDirectory(staging, outDir);
  return readManifest(outDir);
}

function replaceDirectory(staging, outDir) {
  const retired = `${outDir}.${process.pid}.${Date.now()}.old`;
  try {
    fs.renameSync(outDir, retired);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(staging, outDir);
  } catch (error) {
    // Another build won the race and put its (equally current) build in place: keep that one.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    fs.rmSync(staging, { recursive: true, force: true });
  }
  fs.rmSync(retired, { recursive: true, force: true });
}

/** Builds unless dist/console is already a build of the current sources; returns the manifest. */
function ensureConsoleBuilt(outDir = OUT_DIR) {
  if (consoleBuildIsCurrent(outDir)) return readManifest(outDir);
  return buildConsole(outDir);
}

module.exports = { buildConsole, ensureConsoleBuilt, consoleBuildIsCurrent, OUT_DIR };

if (require.main === module) {
  // An install without the sources (the image's dependency stage copies package files only) has nothing to build.
  if (!fs.existsSync(SOURCE_DIR)) process.exit(0);
  const manifest = process.argv.includes('--force') ? buildConsole() : ensureConsoleBuilt();
  const js = manifest.assets[manifest.script];
  process.stdout.write(
    `console: ${path.relative(PROJECT_ROOT, OUT_DIR)} (${manifest.script}: ${js.bytes} B, ${js.gzipBytes} B gzip, ${js.brotliBytes} B brotli)\n`,
  );
}
