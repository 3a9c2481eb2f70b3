import net from 'node:net';
import { deliveryAgents, post } from '../../activities/webhookDelivery';

// A receiver on loopback that closes a kept-alive connection just as the next request arrives on it: the race
// every keep-alive client meets when a server's idle timeout ends. The delivery sends it again on a new connection.
describe('a delivery over a kept-alive connection', () => {
  let server: net.Server;
  let url: URL;
  let connections = 0;
  let requests = 0;

  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      let served = 0;
      socket.on('data', (chunk: Buffer) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        requests++;
        served++;
        // The second request on the first connection meets it closing; every other request is answered.
        if (connections === 1 && served === 2) {
          socket.destroy();
          return;
        }
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`);
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reuses the connection, and sends once more on a new one when the receiver closed it meanwhile', async () => {
    const agents = deliveryAgents();
    const send = () =>
      post(url, { 'content-type': 'application/json' }, '{}', { allowPrivate: true }, agents);
    try {
      expect((await send()).statusCode).toBe(204);
      expect(connections).toBe(1);
      const second = await send();
      expect(second).toMatchObject({ statusCode: 204, error: null });
      expect(requests).toBe(3);
      expect(connections).toBe(2);
      expect((await send()).statusCode).toBe(204);
      expect(connections).toBe(2);
    } finally {
      agents.http.destroy();
    }
  });

  it('without a pool, connects anew for each request', async () => {
    const before = connections;
    await post(url, {}, '{}', { allowPrivate: true });
    await post(url, {}, '{}', { allowPrivate: true });
    expect(connections - before).toBe(2);
  });
});
