/*
 * Toxiproxy (infra/goTools.ts, TOXIPROXY) over its HTTP API: every link between a Referee process and a store
 * passes one of its proxies, so latency can be added to a link while it carries the load. Its API:
 * https://github.com/Shopify/toxiproxy#http-api.
 */

/** A link of the drill: who talks to which store, through which Toxiproxy listener. */
export interface ProxyLink {
  /** The proxy's name, e.g. `api-postgres`. */
  name: string;
  /** host:port Toxiproxy listens on (on the hub's address). */
  listen: string;
  /** host:port of the store. */
  upstream: string;
}

/** A latency toxic: each chunk of data waits `latencyMs` ± `jitterMs` on its way (`downstream`: to the client). */
export interface LatencyToxic {
  name: string;
  stream: 'upstream' | 'downstream';
  latencyMs: number;
  jitterMs: number;
}

export class Toxiproxy {
  constructor(private readonly apiUrl: string) {}

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.apiUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`toxiproxy ${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }

  /** Resolves once the API answers, or rejects after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.call('GET', '/version');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  async createProxy(link: ProxyLink): Promise<void> {
    await this.call('POST', '/proxies', {
      name: link.name,
      listen: link.listen,
      upstream: link.upstream,
      enabled: true,
    });
  }

  async addLatency(proxy: string, toxic: LatencyToxic): Promise<void> {
    await this.call('POST', `/proxies/${proxy}/toxics`, {
      name: toxic.name,
      type: 'latency',
      stream: toxic.stream,
      toxicity: 1,
      attributes: { latency: toxic.latencyMs, jitter: toxic.jitterMs },
    });
  }

  async removeToxic(proxy: string, toxic: string): Promise<void> {
    await this.call('DELETE', `/proxies/${proxy}/toxics/${toxic}`);
  }
}
