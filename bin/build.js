'use strict';
// The one build of every process: each entry point compiled by esbuild into one CommonJS file in dist/ (with a
// source map, so `node --enable-source-maps` reports .ts lines), and the workers' workflow bundle. A target is
// rebuilt only when a file it was built from (esbuild's own list, kept beside it) is newer than its output, or
// when this script is: `npm start` and the other package scripts run `node bin/build.js <target>` first, so a
// developer's edit is picked up by the next start and an unchanged tree costs a few stat calls.
//
//   node bin/build.js <target>...   build what is stale of these targets and what they start
//   node bin/build.js --all         every target (the image's build)
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PROJECT_ROOT = path.resolve(__dirname, '..');

/**
 * Every target: its entry point, and the targets the process it builds starts (built with it). dist/ is one level
 * below the root, like deployment/: a bundle's `__dirname` gives the same project root (deployment/projectRoot.ts)
 * as the source.
 */
const TARGETS = {
  referee: { entry: 'cli/main.ts' },
  server: { entry: 'server.ts' },
  worker: { entry: 'worker.ts' },
  'bundle-workflows': { entry: 'scripts/bundleWorkflows.ts' },
  'workflow-bundle': { workflows: 'workflows/index.ts', needs: ['bundle-workflows'] },
  start: { entry: 'launcher/start.ts', needs: ['server', 'worker', 'workflow-bundle', 'referee'] },
  'start-cluster': {
    entry: 'launcher/startCluster.ts',
    needs: ['server', 'worker', 'workflow-bundle', 'referee'],
  },
  'bench-baseline': { entry: 'bench/baseline/server.ts' },
  'bench-echo-worker': { entry: 'bench/baseline/echoWorker.ts' },
  bench: {
    entry: 'bench/index.ts',
    needs: ['server', 'worker', 'workflow-bundle', 'referee', 'bench-baseline', 'bench-echo-worker'],
  },
  soak: {
    entry: 'drills/soak.ts',
    needs: ['server', 'worker', 'workflow-bundle', 'referee', 'bench-baseline', 'bench-echo-worker'],
  },
  chaos: { entry: 'drills/chaos.ts', needs: ['start-cluster', 'referee'] },
  'restart-times': { entry: 'drills/restartTimes.ts', needs: ['start', 'start-cluster'] },
};

const outputOf = (root, name) => path.join(root, 'dist', `${name}.js`);
const inputsFileOf = (root, name) => path.join(root, 'dist', `${name}.inputs.json`);

/** The project files `name` was built from, relative to `root`, as recorded at its last build. */
function builtFrom(name, root = PROJECT_ROOT) {
  return JSON.parse(fs.readFileSync(inputsFileOf(root, name), 'utf8'));
}

/** True when the output of `name` exists and neither a file it was built from nor this script is newer or gone. */
function isCurrent(name, root = PROJECT_ROOT) {
  try {
    const built = fs.statSync(outputOf(root, name)).mtimeMs;
    const sources = [__filename, ...builtFrom(name, root).map((input) => path.join(root, input))];
    return sources.every((source) => fs.statSync(source).mtimeMs <= built);
  } catch {
    return false;
  }
}

/**
 * Keeps a module's `if (require.main === module)` block out of every bundle but its own: inside a bundle `module`
 * is the bundle's, so an imported entry point (worker.ts in the echo worker, bench/profile.ts in the bench) would
 * otherwise run its main as well. Plain JavaScript of the project (console/build.js) stays a file of its own,
 * required from dist/ by its relative path, because it finds its folder through its own `__dirname`.
 */
function projectBoundaries(root, entry) {
  const dist = path.join(root, 'dist');
  return {
    name: 'project-boundaries',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        const file = [target, `${target}.ts`, `${target}.js`, path.join(target, 'index.ts')].find(
          (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
        );
        if (!file || !/\.c?js$/.test(file) || file.includes(`${path.sep}node_modules${path.sep}`))
          return undefined;
        return { path: path.relative(dist, file).split(path.sep).join('/'), external: true };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path === entry || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = fs.readFileSync(args.path, 'utf8');
        if (!source.includes('require.main === module')) return undefined;
        return { contents: source.replaceAll('require.main === module', 'false'), loader: 'ts' };
      });
    },
  };
}

/** Compiles the entry point of target `name` into dist/<name>.js with its source map and its list of inputs. */
async function compile(name, root = PROJECT_ROOT, entryPoint = TARGETS[name].entry) {
  const esbuild = require('esbuild');
  const out = outputOf(root, name);
  const entry = path.join(root, entryPoint);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  const { metafile } = await esbuild.build({
    entryPoints: [entry],
    outfile: temporary,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    plugins: [projectBoundaries(root, entry)],
  });
  // The map names the file it maps by its final name.
  const map = JSON.parse(fs.readFileSync(`${temporary}.map`, 'utf8'));
  map.file = path.basename(out);
  fs.writeFileSync(`${out}.map`, JSON.stringify(map));
  fs.rmSync(`${temporary}.map`);
  const code = fs.readFileSync(temporary, 'utf8');
  fs.writeFileSync(
    temporary,
    code.replace(/\/\/# sourceMappingURL=\S+\s*$/, `//# sourceMappingURL=${path.basename(out)}.map\n`),
  );
  writeInputs(root, name, Object.keys(metafile.inputs));
  // Renamed into place after its list, so a concurrent start never loads half a file, nor a bundle newer than
  // the list describing it.
  fs.renameSync(temporary, out);
}

function writeInputs(root, name, inputs) {
  const file = inputsFileOf(root, name);
  fs.writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify([...new Set(inputs)].sort()));
  fs.renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * The workers' workflow bundle, dist/workflow-bundle.js, made by the SDK's bundler (compiled
 * scripts/bundleWorkflows.ts, in a process of its own). Its inputs are the files workflows/ imports, as esbuild
 * resolves them, and the lockfile, since the bundle holds the SDK's workflow code too.
 */
function bundleWorkflows(root = PROJECT_ROOT) {
  const { metafile } = require('esbuild').buildSync({
    entryPoints: [path.join(root, TARGETS['workflow-bundle'].workflows)],
    absWorkingDir: root,
    bundle: true,
    write: false,
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
    metafile: true,
    outfile: outputOf(root, 'workflow-bundle'),
  });
  const out = outputOf(root, 'workflow-bundle');
  const result = spawnSync(
    process.execPath,
    ['--enable-source-maps', outputOf(root, 'bundle-workflows'), out],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0)
    throw new Error(`bundling the workflows failed: ${(result.stderr || result.stdout).trim()}`);
  writeInputs(root, 'workflow-bundle', [
    ...Object.keys(metafile.inputs),
    ...builtFrom('bundle-workflows', root),
    'package-lock.json',
  ]);
  // The bundle was written before its list: touched after it, so it is not older than the list describes.
  const now = new Date();
  fs.utimesSync(out, now, now);
}

/** The targets `names` start, each once, every target after those it needs. */
function withNeeds(names) {
  const ordered = [];
  const visit = (name) => {
    if (!TARGETS[name])
      throw new Error(`unknown build target ${name} (known: ${Object.keys(TARGETS).join(', ')})`);
    if (ordered.includes(name)) return;
    for (const need of TARGETS[name].needs ?? []) visit(need);
    ordered.push(name);
  };
  names.forEach(visit);
  return ordered;
}

/** Builds what is stale of `names` and the targets they need; returns the names it built. */
async function ensureBuilt(names, log = () => {}) {
  const built = [];
  for (const name of withNeeds(names)) {
    if (isCurrent(name)) continue;
    const started = Date.now();
    if (TARGETS[name].workflows) bundleWorkflows();
    else await compile(name);
    built.push(name);
    log(`built dist/${name}.js (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return built;
}

module.exports = { TARGETS, PROJECT_ROOT, builtFrom, compile, ensureBuilt, isCurrent, outputOf, withNeeds };

if (require.main === module) {
  require('./runtime').requireSupportedNode('build');
  const args = process.argv.slice(2);
  const names = args.includes('--all') ? Object.keys(TARGETS) : args;
  if (names.length === 0) {
    process.stderr.write(
      `usage: node bin/build.js <target>... | --all\ntargets: ${Object.keys(TARGETS).join(', ')}\n`,
    );
    process.exit(2);
  }
  ensureBuilt(names, (line) => process.stderr.write(`build: ${line}\n`)).catch((error) => {
    process.stderr.write(`build: ${error.message}\n`);
    process.exit(1);
  });
}
