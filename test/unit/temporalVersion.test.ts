import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';

// Compose files use YAML merge keys (`<<: *app`), which js-yaml's YAML 1.2 core schema leaves out unless asked.
const COMPOSE_SCHEMA = CORE_SCHEMA.withTags(mergeTag);
import { TEMPORAL_SERVER, TEMPORAL_SQL_TOOL, TEMPORAL_UI_SERVER } from '../../infra/goTools';
import { DYNAMIC_CONFIG_FILE, HISTORY_SHARDS, temporalServerConfig } from '../../infra/temporalServer';

/**
 * docker-compose.yml and `npm run start:cluster` must run one Temporal: the same server release, UI and SQL tool
 * release, shard count and dynamic config file. Compose cannot run here (no Docker engine), so it is read.
 */
const root = join(__dirname, '..', '..');

interface ComposeService {
  image?: string;
  environment?: Record<string, string | number>;
  volumes?: string[];
}
const { services } = load(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), {
  schema: COMPOSE_SCHEMA,
}) as {
  services: Record<string, ComposeService>;
};
const tag = (service: string) => {
  const image = services[service]?.image ?? '';
  return image.slice(image.lastIndexOf(':') + 1);
};
const bare = (version: string) => version.replace(/^v/, '');

const servicePorts = {
  frontend: { grpcPort: 7000, membershipPort: 7001, httpPort: 7002 },
  history: { grpcPort: 7003, membershipPort: 7004 },
  matching: { grpcPort: 7005, membershipPort: 7006 },
  worker: { grpcPort: 7007, membershipPort: 7008 },
};

test('compose runs the Temporal server release the cluster profile builds', () => {
  expect(services.temporal.image).toBe(`temporalio/server:${bare(TEMPORAL_SERVER.version)}`);
  expect(TEMPORAL_SQL_TOOL.version).toBe(TEMPORAL_SERVER.version);
  // admin-tools tags name the server release first, then the tctl and CLI inside.
  for (const oneShot of ['temporal-schema', 'temporal-setup']) {
    expect(services[oneShot].image).toMatch(/^temporalio\/admin-tools:/);
    expect(tag(oneShot).split('-')[0]).toBe(bare(TEMPORAL_SERVER.version));
  }
});

test('compose runs the Temporal UI release the cluster profile builds', () => {
  expect(services['temporal-ui'].image).toBe(`temporalio/ui:${bare(TEMPORAL_UI_SERVER.version)}`);
});

test('compose and the cluster profile read the same dynamic config file', () => {
  const env = services.temporal.environment ?? {};
  const mountedAt = String(env.DYNAMIC_CONFIG_FILE_PATH);
  const mount = (services.temporal.volumes ?? []).find((v) => v.split(':')[1] === mountedAt);
  expect(mount).toBeDefined();
  expect(resolve(root, mount!.split(':')[0])).toBe(DYNAMIC_CONFIG_FILE);

  const config = temporalServerConfig(
    'postgres://u:p@127.0.0.1:5432/postgres',
    { persistence: 'temporal', visibility: 'temporal_visibility' },
    '127.0.0.1',
    servicePorts,
    { metricsPort: 7009 },
  );
  expect(config.dynamicConfigClient.filepath).toBe(DYNAMIC_CONFIG_FILE);
});

test('compose and the cluster profile create the same number of history shards', () => {
  expect(Number(services.temporal.environment?.NUM_HISTORY_SHARDS)).toBe(HISTORY_SHARDS);
  const config = temporalServerConfig(
    'postgres://u:p@127.0.0.1:5432/postgres',
    { persistence: 'temporal', visibility: 'temporal_visibility' },
    '127.0.0.1',
    servicePorts,
    { metricsPort: 7009 },
  );
  expect(config.persistence.numHistoryShards).toBe(HISTORY_SHARDS);
});

test('the dynamic config file parses and sets what the task workflows rely on', () => {
  const dynamic = load(readFileSync(DYNAMIC_CONFIG_FILE, 'utf8')) as Record<
    string,
    Array<{ value: unknown }>
  >;
  expect(dynamic['system.enableActivityEagerExecution']?.[0]?.value).toBe(true);
  expect(dynamic['limit.maxIDLength']?.[0]?.value).toBe(255);
});
