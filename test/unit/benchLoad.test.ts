import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad } from '../../bench/load';

/**
 * The bench's load clients share header objects between requests (and with later fetches). autocannon writes
 * Content-Length into the headers it is given; a shared object then carried one body's length into every later
 * request built from it, and the API read the rest of the body as a next request (400, or 408 a minute later).
 */
describe('runLoad', () => {
  let server: Server;
  let url: string;
  const received: Array<{ length: string | undefined; body: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ length: req.headers['content-length'], body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('leaves the headers object a client hands it unchanged, and sends each body with its own length', async () => {
    const shared = { 'content-type': 'application/json' };
    let n = 0;
    const sample = await runLoad({
      url,
      connections: 1,
      requestsPerClient: 3,
      client: () => ({
        next: () => ({ method: 'POST', path: '/', headers: shared, body: 'x'.repeat(10 ** n++) }),
      }),
    });
    expect(sample.count).toBe(3);
    expect(shared).toEqual({ 'content-type': 'application/json' });
    expect(received.map((r) => [r.length, r.body.length])).toEqual([
      ['1', 1],
      ['10', 10],
      ['100', 100],
    ]);
  });
});
