import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, with what the standardwebhooks package made of its signature. */
export interface Received {
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; sequence: number; data: Record<string, any> };
  /** Which of the receiver's secrets verified it (by index in `secrets`). */
  verifiedBy: number[];
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

/**
 * A real receiver on loopback: records every request and checks its signature with the standardwebhooks
 * package against each secret it knows. `answer` decides the response (default 200 `ok`).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  answer: (request: Received, index: number) => Answer = () => ({ status: 200 });
  /** Requests it is answering now, and the most it ever answered at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** TCP connections the deliveries came over. */
  connections = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = request.headers;
        const received: Received = {
          webhookId: header(headers, 'webhook-id'),
          timestamp: header(headers, 'webhook-timestamp'),
          signature: header(headers, 'webhook-signature'),
          body,
          payload: JSON.parse(body),
          verifiedBy: this.secrets.flatMap((secret, index) =>
            verifies(secret, body, headers) ? [index] : [],
          ),
          at: Date.now(),
        };
        const index = this.received.push(received) - 1;
        const answer = this.answer(received, index);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        setTimeout(() => {
          this.inFlight--;
          if (response.destroyed) return;
          response.writeHead(answer.status, answer.headers ?? {});
          response.end('ok');
        }, answer.delayMs ?? 0);
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

function verifies(secret: string, body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': header(headers, 'webhook-id'),
      'webhook-timestamp': header(headers, 'webhook-timestamp'),
      'webhook-signature': header(headers, 'webhook-signature'),
    });
    return true;
  } catch {
    return false;
  }
}
