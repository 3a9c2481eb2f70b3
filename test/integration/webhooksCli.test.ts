import { rm } from 'node:fs/promises';
import { cleanEnv, type CliResult, type NpmStart, referee, startNpmStart } from '../helpers/npmStart';
import { eventually } from '../helpers/genomics';
import { WebhookReceiver } from '../helpers/webhooks';

/**
 * `referee webhooks …` as the README shows it (`npx referee`), against `npm start` with private targets allowed
 * for a receiver on loopback: create prints the secret once, a key revoked by the CLI is delivered and verifies
 * with it, deliveries list it, redeliver sends the same webhook-id, rotate prints a new secret, delete ends it.
 */

let system: NpmStart;
let env: NodeJS.ProcessEnv;
let receiver: WebhookReceiver;

beforeAll(async () => {
  system = await startNpmStart({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  env = cleanEnv({ REFEREE_DATA_DIR: system.dataDir });
  receiver = await new WebhookReceiver().start();
}, 300_000);

afterAll(async () => {
  await receiver?.stop();
  await system?.stop();
  if (system) await rm(system.dataDir, { recursive: true, force: true });
}, 120_000);

const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;
const webhooks = (args: string[]) => referee(['webhooks', ...args, '--json'], env);

test('manages a math endpoint end to end; the secret is shown once', async () => {
  const created = await webhooks([
    'create',
    '--service',
    'math',
    '--url',
    receiver.url,
    '--events',
    'math.key.revoked',
    '--description',
    'cli receiver',
  ]);
  expect(created.code).toBe(0);
  const { webhook, secret } = json(created);
  expect(secret).toMatch(/^whsec_/);
  receiver.secrets = [secret];
  const listed = await webhooks(['list', '--service', 'math']);
  expect(json(listed).webhooks.map((w: { id: string }) => w.id)).toEqual([webhook.id]);
  expect(listed.stdout).not.toContain(secret);
  expect((await webhooks(['read', webhook.id, '--service', 'math'])).stdout).not.toContain(secret);

  const key = json(
    await referee(['keys', 'create', '--service', 'math', '--member', 'idp|olga', '--json'], env),
  );
  expect((await referee(['keys', 'revoke', key.id], env)).code).toBe(0);
  expect(await eventually(async () => receiver.received.length >= 1, 120_000)).toBe(true);
  expect(receiver.received[0].payload).toMatchObject({ type: 'math.key.revoked', data: { key_id: key.id } });
  expect(receiver.received[0].verifiedBy).toEqual([0]);

  const deliveries = json(await webhooks(['deliveries', webhook.id, '--service', 'math']));
  expect(deliveries.deliveries).toHaveLength(1);
  const [delivery] = deliveries.deliveries;
  expect(delivery).toMatchObject({ status: 'SUCCEEDED', message_id: receiver.received[0].webhookId });
  expect((await webhooks(['redeliver', webhook.id, delivery.id, '--service', 'math'])).code).toBe(0);
  expect(await eventually(async () => receiver.received.length >= 2, 120_000)).toBe(true);
  expect(receiver.received[1].webhookId).toBe(receiver.received[0].webhookId);

  const paused = json(await webhooks(['pause', webhook.id, '--service', 'math']));
  expect(paused.webhook.status).toBe('PAUSED');
  const resumed = json(await webhooks(['resume', webhook.id, '--service', 'math']));
  expect(resumed.webhook.status).toBe('ACTIVE');
  const updated = json(
    await webhooks(['update', webhook.id, '--service', 'math', '--events', 'all', '--description', 'all']),
  );
  expect(updated.webhook).toMatchObject({ description: 'all', status: 'ACTIVE' });
  const rotated = await webhooks(['rotate', webhook.id, '--service', 'math', '--grace-hours', '0']);
  expect(json(rotated).secret).toMatch(/^whsec_/);
  expect(json(rotated).secret).not.toBe(secret);

  expect(json(await webhooks(['delete', webhook.id, '--service', 'math']))).toMatchObject({ deleted: true });
  const gone = await webhooks(['read', webhook.id, '--service', 'math']);
  expect([gone.code, json(gone).error.code]).toEqual([1, 'endpoint_not_found']);
}, 400_000);

test('genomics endpoints are the genomics service’s own; bad input is a usage error that changes nothing', async () => {
  const created = json(
    await webhooks(['create', '--service', 'genomics', '--url', receiver.url, '--events', 'all']),
  );
  expect(created.webhook.event_types).toContain('genomics.topic.reviewer_assigned');
  expect(json(await webhooks(['list', '--service', 'math'])).webhooks).toEqual([]);
  const bad = [
    ['create', '--service', 'genomics', '--url', receiver.url, '--events', 'math.key.revoked'],
    ['read', 'not-a-uuid', '--service', 'genomics'],
    ['rotate', created.webhook.id, '--service', 'genomics', '--grace-hours', '999'],
    ['list'],
  ];
  for (const args of bad) expect((await webhooks(args)).code).toBe(2);
  expect(json(await webhooks(['list', '--service', 'genomics'])).webhooks).toHaveLength(1);
}, 200_000);
