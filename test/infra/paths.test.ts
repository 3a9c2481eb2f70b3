import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataDir, projectRoot, toolsCacheDir } from '../../infra/paths';

const saved = { ...process.env };

afterEach(() => {
  for (const key of ['REFEREE_DATA_DIR', 'REFEREE_TOOLS_DIR', 'XDG_CACHE_HOME']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

test('projectRoot is the repository root', () => {
  expect(path.isAbsolute(projectRoot)).toBe(true);
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { name: string };
  expect(pkg.name).toBe('referee');
});

test('dataDir defaults to <repo>/.referee and follows REFEREE_DATA_DIR', () => {
  delete process.env.REFEREE_DATA_DIR;
  expect(dataDir()).toBe(path.join(projectRoot, '.referee'));
  process.env.REFEREE_DATA_DIR = 'relative/state';
  expect(dataDir()).toBe(path.resolve('relative/state'));
});

test('toolsCacheDir lives outside the clone', () => {
  delete process.env.REFEREE_TOOLS_DIR;
  delete process.env.XDG_CACHE_HOME;
  expect(toolsCacheDir()).toBe(path.join(os.homedir(), '.cache', 'referee', 'tools'));
  process.env.XDG_CACHE_HOME = '/var/cache/someone';
  expect(toolsCacheDir()).toBe('/var/cache/someone/referee/tools');
  process.env.REFEREE_TOOLS_DIR = '/opt/referee-tools';
  expect(toolsCacheDir()).toBe('/opt/referee-tools');
});
