import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureHeader } from '../../activities/webhookDelivery';
import { MATH_ACTION_WEBHOOK_EVENTS } from '../../activities/mathTransitionQueries';
import { genomicsWebhookEventType } from '../../activities/genomicsTransitionQueries';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
} from '../../webhooks/endpointWorkflow';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_WITHDRAWAL_EVENT_TYPES } from '../../webhooks/events';
import { WEBHOOK_EVENT_DOCS } from '../../webhooks/payloads';
import { generateWebhookSecret, openSecret, parseSealingKey, sealSecret } from '../../webhooks/secrets';
import { checkTargetUrl, isForbiddenAddress, type WebhookTargetRefused } from '../../webhooks/targets';
import {
  MAX_ATTEMPTS,
  nextStep,
  parseRetryAfter,
  RETRY_WAITS_MS,
} from '../../workflows/webhookEndpoint/schedule';

describe('retry schedule (Standard Webhooks)', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, jittered by ±20 %, then gives up', () => {
    const waits = RETRY_WAITS_MS.map((_, i) => nextStep({ kind: 'failed', retryAfterMs: null }, i + 1, 0.5));
    expect(waits).toEqual(RETRY_WAITS_MS.map((ms) => ({ kind: 'retry', afterMs: ms })));
    expect(nextStep({ kind: 'failed', retryAfterMs: null }, 1, 0)).toEqual({ kind: 'retry', afterMs: 4_000 });
    expect(nextStep({ kind: 'failed', retryAfterMs: null }, 1, 0.999_999)).toEqual({
      kind: 'retry',
      afterMs: 6_000,
    });
    expect(nextStep({ kind: 'failed', retryAfterMs: null }, MAX_ATTEMPTS, 0.5)).toEqual({ kind: 'give_up' });
  });

  it('honours Retry-After within bounds, and stops on success, 410 or a skipped delivery', () => {
    expect(nextStep({ kind: 'failed', retryAfterMs: 120_000 }, 1, 0.5)).toEqual({
      kind: 'retry',
      afterMs: 120_000,
    });
    expect(nextStep({ kind: 'failed', retryAfterMs: 0 }, 1, 0.5)).toEqual({ kind: 'retry', afterMs: 1_000 });
    expect(nextStep({ kind: 'failed', retryAfterMs: 1e12 }, 1, 0.5)).toEqual({
      kind: 'retry',
      afterMs: 36_000_000,
    });
    for (const kind of ['delivered', 'gone', 'skipped'] as const) {
      expect(nextStep({ kind }, 1, 0.5)).toEqual({ kind: 'done' });
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-25T17:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 17:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('target policy (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '::ffff:127.0.0.1',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    'fd00:ec2::254',
    'fe80::1',
    '100.100.100.200',
    '224.0.0.1',
    'not-an-ip',
    // Tunnels and translations that reach an IPv4 address they embed, and site-local.
    'fec0::1',
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '64:ff9b:1::a00:1', // local-use NAT64 of 10.0.0.1
    '::ffff:8.8.8.8', // IPv4-mapped, even of a public address
    '::ffff:0:a00:1', // IPv4-translated
  ])('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '2606:4700::1111', '2a00:1450:4001:82a::200e'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );

  it('wants https, no credentials; http only where private targets are allowed', () => {
    const reason = (url: string, allowPrivate = false) => {
      try {
        checkTargetUrl(url, { allowPrivate });
        return 'ok';
      } catch (error) {
        return (error as WebhookTargetRefused).reason;
      }
    };
    expect(reason('https://hooks.example.org/x')).toBe('ok');
    expect(reason('http://hooks.example.org/x')).toBe('scheme_not_allowed');
    expect(reason('http://hooks.example.org/x', true)).toBe('ok');
    expect(reason('ftp://hooks.example.org/x', true)).toBe('scheme_not_allowed');
    expect(reason('https://a:b@hooks.example.org/x')).toBe('credentials_in_url');
    expect(reason('not a url')).toBe('invalid_url');
  });
});

describe('secrets', () => {
  const key = randomBytes(32);

  it('are sealed for one endpoint under the key, and open only with both', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sealed = sealSecret(secret, key, 'endpoint-1');
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret(sealed, key, 'endpoint-1')).toBe(secret);
    expect(() => openSecret(sealed, key, 'endpoint-2')).toThrow();
    expect(() => openSecret(sealed, randomBytes(32), 'endpoint-1')).toThrow();
  });

  it('take a 32-byte base64 key only', () => {
    expect(parseSealingKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSealingKey(randomBytes(16).toString('base64'))).toThrow();
  });

  it('sign with every current secret; the standardwebhooks package verifies each', () => {
    const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"type":"math.task.started"}';
    const timestamp = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader([newSecret, oldSecret], 'msg_1', timestamp, body),
    };
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual({ type: 'math.task.started' });
    expect(new Webhook(newSecret).verify(body, headers)).toEqual({ type: 'math.task.started' });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe('the endpoint workflow as the API names it', () => {
  it('has the workflow’s type and signal name', async () => {
    const workflows = await import('../../workflows');
    const { wakeWebhookEndpointSignal } = await import('../../workflows/webhookEndpoint/messages');
    expect(Object.keys(workflows)).toContain(WEBHOOK_ENDPOINT_WORKFLOW_TYPE);
    expect(wakeWebhookEndpointSignal.name).toBe(WAKE_WEBHOOK_ENDPOINT_SIGNAL);
  });
});

describe('event catalogue', () => {
  it('every math action and genomics event kind maps to a documented event type', () => {
    for (const type of Object.values(MATH_ACTION_WEBHOOK_EVENTS)) {
      expect(WEBHOOK_EVENT_TYPES.math).toContain(type);
    }
    expect(WEBHOOK_EVENT_TYPES.genomics).toContain(genomicsWebhookEventType('assignment_expired'));
  });

  it('the withdrawal is documented but cannot be subscribed to', () => {
    for (const service of ['math', 'genomics'] as const) {
      expect(WEBHOOK_EVENT_TYPES[service]).not.toContain(WEBHOOK_WITHDRAWAL_EVENT_TYPES[service]);
      const docs: Record<string, { recipients?: string }> = WEBHOOK_EVENT_DOCS[service];
      expect(docs[WEBHOOK_WITHDRAWAL_EVENT_TYPES[service]].recipients).toMatch(/cannot be subscribed/);
    }
  });

  it('every documented example is valid against its own schema', () => {
    for (const service of ['math', 'genomics'] as const) {
      const docs = WEBHOOK_EVENT_DOCS[service] as Record<
        string,
        (typeof WEBHOOK_EVENT_DOCS.math)['math.key.revoked']
      >;
      expect(Object.keys(docs).sort()).toEqual(
        [...WEBHOOK_EVENT_TYPES[service], WEBHOOK_WITHDRAWAL_EVENT_TYPES[service]].sort(),
      );
      for (const [type, doc] of Object.entries(docs)) {
        expect(doc.schema.validate(doc.example).error).toBeUndefined();
        expect(doc.example.type).toBe(type);
      }
    }
  });
});
