import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';

// Compose files use YAML merge keys (`<<: *app`), which js-yaml's YAML 1.2 core schema leaves out unless asked.
const COMPOSE_SCHEMA = CORE_SCHEMA.withTags(mergeTag);
import { CONFIG_VARIABLES } from '../../config';
import { CLI_NODE_FLAGS, COMPILED_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../infra/processes';

// bin/build.js is the CommonJS script the package scripts run; the test reads its targets as it does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TARGETS } = require('../../bin/build.js') as { TARGETS: Record<string, { entry?: string }> };

/**
 * docker-compose.yml and the Dockerfile cannot be run here (no Docker engine), so they are read: the services
 * start the entry points the build emits, with the V8 flags every other launcher uses, and set only variables
 * the services read.
 */
const root = join(__dirname, '..', '..');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  ports?: string[];
}
const compose = load(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { schema: COMPOSE_SCHEMA }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
/** The TypeScript source the build compiles to a `dist/<target>.js` path. */
const sourceOf = (distPath: string) => {
  const entry = TARGETS[distPath.replace(/^dist\//, '').replace(/\.js$/, '')]?.entry;
  return entry ? join(root, entry) : '';
};

describe('docker-compose.yml', () => {
  it('has the stores, Temporal, the one-shot steps and the application services', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'api',
        'db',
        'migrate',
        'ops',
        's3',
        's3-setup',
        'temporal',
        'temporal-schema',
        'temporal-setup',
        'temporal-ui',
        'worker',
      ].sort(),
    );
  });

  it('starts the API, the worker and the ops CLI with the flags npm start and the bench use', () => {
    const node = ['node', ...COMPILED_NODE_FLAGS];
    expect(services.api.command).toEqual([...node, ...SERVICE_NODE_FLAGS.api, 'dist/server.js']);
    expect(services.worker.command).toEqual([...node, ...SERVICE_NODE_FLAGS.worker, 'dist/worker.js']);
    expect(services.migrate.command).toEqual([...node, ...CLI_NODE_FLAGS, 'dist/referee.js', 'migrate']);
    expect(services.ops.entrypoint).toEqual([...node, ...CLI_NODE_FLAGS, 'dist/referee.js']);
    for (const name of ['api', 'worker', 'migrate', 'ops']) {
      const entry = [...(services[name].entrypoint ?? []), ...(services[name].command ?? [])].find((part) =>
        part.startsWith('dist/'),
      );
      expect(existsSync(sourceOf(entry ?? ''))).toBe(true);
    }
  });

  it('gives the application containers only variables the services read', () => {
    for (const name of ['api', 'worker', 'migrate', 'ops']) {
      const unknown = Object.keys(services[name].environment ?? {}).filter(
        (variable) => variable !== 'NODE_ENV' && !CONFIG_VARIABLES.includes(variable),
      );
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
    expect(CONFIG_VARIABLES).toContain('DATABASE_URL');
  });

  it('starts the application only after its stores, migrations and Temporal setup', () => {
    for (const name of ['api', 'worker']) {
      expect(services[name].depends_on).toEqual({
        db: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
        'temporal-setup': { condition: 'service_completed_successfully' },
        's3-setup': { condition: 'service_completed_successfully' },
      });
    }
    for (const [name, service] of Object.entries(services))
      for (const needed of Object.keys(service.depends_on ?? {}))
        expect({ service: name, needs: needed, defined: needed in services }).toEqual({
          service: name,
          needs: needed,
          defined: true,
        });
  });

  it('publishes only the API beyond loopback, and the Temporal UI read only', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => ({ name, onLoopback: port.startsWith('127.0.0.1:') })),
    );
    expect(published.filter((p) => !p.onLoopback).map((p) => p.name)).toEqual(['api']);
    expect(published).toContainEqual({ name: 'temporal-ui', onLoopback: true });
    expect(services['temporal-ui'].environment?.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('true');
    // The header says which ports are for development only.
    expect(readFileSync(join(root, 'docker-compose.yml'), 'utf8')).toMatch(
      /^# .*Temporal UI .*development only/m,
    );
  });
});

const packageScripts = () =>
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

describe('Dockerfile and package scripts', () => {
  it('run the API and the worker with the same flags', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual([
      'node',
      ...COMPILED_NODE_FLAGS,
      ...SERVICE_NODE_FLAGS.api,
      'dist/server.js',
    ]);
    expect(dockerfile).not.toMatch(/NODE_OPTIONS/);
    const scripts = packageScripts();
    expect(scripts.server).toBe(
      [
        'node bin/build.js server && node',
        ...COMPILED_NODE_FLAGS,
        ...SERVICE_NODE_FLAGS.api,
        'dist/server.js',
      ].join(' '),
    );
    expect(scripts.worker).toBe(
      [
        'node bin/build.js worker && node',
        ...COMPILED_NODE_FLAGS,
        ...SERVICE_NODE_FLAGS.worker,
        'dist/worker.js',
      ].join(' '),
    );
  });

  it('run every process from its build, built first by the same script', () => {
    const scripts = packageScripts();
    for (const [script, target] of [
      ['start', 'start'],
      ['start:cluster', 'start-cluster'],
      ['bench', 'bench'],
      ['soak', 'soak'],
      ['chaos', 'chaos'],
      ['restart-times', 'restart-times'],
    ]) {
      expect(scripts[script]).toBe(
        `node bin/build.js ${target} && node ${COMPILED_NODE_FLAGS.join(' ')} dist/${target}.js`,
      );
      expect(existsSync(join(root, TARGETS[target].entry!))).toBe(true);
    }
    expect(scripts.build).toMatch(/^node bin\/build\.js --all /);
  });

  it('run the ops CLI with its flags, through npm run ops and through the referee command', () => {
    const scripts = packageScripts();
    expect(scripts.ops).toBe(['node', ...CLI_NODE_FLAGS, 'bin/referee.js'].join(' '));
    const shebang = readFileSync(join(root, 'bin', 'referee.js'), 'utf8').split('\n')[0];
    expect(shebang).toBe(['#!/usr/bin/env -S node', ...CLI_NODE_FLAGS].join(' '));
  });
});
