import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import {
  checkTargetAddresses,
  guardedLookup,
  type TargetPolicy,
  WebhookTargetRefused,
} from '../webhooks/targets';
import { type DeliveryRunEnd, runEndpointDelivery, type WebhookDeliveryMetrics } from './webhookBatches';
import type { WebhookWakeups } from './webhookWakeups';

/** What delivery needs besides the database: the key that opens secrets, the target policy, the listener. */
export interface WebhookDeliveryDeps {
  /** Null when `WEBHOOK_SECRET_KEY` is unset: nothing can be signed, so deliveries wait. */
  sealingKey: Buffer | null;
  policy: TargetPolicy;
  wakeups: WebhookWakeups;
  /** Per-endpoint delivery metrics; none in tests that do not read them. */
  metrics?: WebhookDeliveryMetrics;
  /** The clock the endpoint's health is judged by (5 days failing disable it); tests set their own. */
  clock?: () => number;
}

/** Standard Webhooks' advice, and the issue's: a receiver answers within 15 s or the attempt failed. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** How much of a response is read (and kept as its excerpt): enough to show an error, never a download. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface HttpResult {
  statusCode: number | null;
  error: string | null;
  retryAfter: string | undefined;
  excerpt: string;
}

/** Signs the body with every current secret: `v1,<sig>` each, space-separated (the spec's multi-signature form). */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}

/**
 * POSTs one signed message, connecting only to checked addresses, reading at most a small bound of the answer.
 * With `agents` (one endpoint's delivery run) connections are kept alive and reused; a request that meets a reused
 * connection closed by the receiver meanwhile (its idle timeout) is sent once more on a new connection.
 */
export async function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  agents?: DeliveryAgents,
): Promise<HttpResult> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) await checkTargetAddresses(url, policy); // Node skips `lookup` for literals
  const agent = agents ? (url.protocol === 'https:' ? agents.https : agents.http) : false;
  const first = await exchangeOnce(url, headers, body, policy, agent);
  if (first.closedBeforeAnswer && first.reusedSocket) {
    return (await exchangeOnce(url, headers, body, policy, agent)).result;
  }
  return first.result;
}

/** Keep-alive connection pools of one endpoint's delivery run. */
export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
}

/** How long an idle connection to a receiver stays open: below Node's and most servers' keep-alive time (5 s). */
const IDLE_CONNECTION_MS = 4_000;

export function deliveryAgents(): DeliveryAgents {
  const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

async function exchangeOnce(
  url: URL,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  agent: http.Agent | false,
): Promise<{ result: HttpResult; reusedSocket: boolean; closedBeforeAnswer: boolean }> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: HttpResult, closedBeforeAnswer = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ result, reusedSocket: request.reusedSocket, closedBeforeAnswer });
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy),
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: null,
            retryAfter: response.headers['retry-after'],
            excerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (length >= RESPONSE_EXCERPT_BYTES) {
            // Not read to its end: the connection cannot be reused.
            response.destroy();
            done();
          }
        });
        // Read to its end, the connection goes back to the pool.
        response.on('end', done);
        response.on('error', done);
      },
    );
    const deadline = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: 'timeout', retryAfter: undefined, excerpt: '' });
    }, ATTEMPT_TIMEOUT_MS);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error instanceof WebhookTargetRefused ? 'refused_target' : (error.code ?? 'connection_failed');
      finish(
        { statusCode: null, error: reason, retryAfter: undefined, excerpt: '' },
        error.code === 'ECONNRESET' || error.code === 'EPIPE',
      );
    });
    request.end(body);
  });
}

/** The Standard Webhooks POST of one body, signed with every given secret; a refused target is a result. */
export async function signedPost(
  url: URL,
  messageId: string,
  secrets: string[],
  body: string,
  policy: TargetPolicy,
  agents?: DeliveryAgents,
): Promise<HttpResult> {
  const timestamp = new Date();
  try {
    return await post(
      url,
      {
        'content-type': 'application/json',
        'user-agent': 'Referee-Webhooks/1',
        'webhook-id': messageId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signatureHeader(secrets, messageId, timestamp, body),
      },
      body,
      policy,
      agents,
    );
  } catch (error) {
    if (error instanceof WebhookTargetRefused)
      return { statusCode: null, error: 'refused_target', retryAfter: undefined, excerpt: '' };
    throw error;
  }
}

/** The endpoint workflow's activity: the batched delivery of one endpoint for a few minutes. */
export function webhookDeliveryActivities(dataSource: DataSource, deps: WebhookDeliveryDeps) {
  return {
    /** Delivers the endpoint's due events in parallel, in order per subject, for a few minutes (heartbeating). */
    async deliverWebhooks(input: { endpointId: string }): Promise<DeliveryRunEnd> {
      return runEndpointDelivery(dataSource, deps, input.endpointId);
    },
  };
}
