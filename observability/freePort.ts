import net from 'node:net';

// In observability/ for the worker's SDK metrics exporter, which binds a free loopback port: the worker imports
// nothing of infra/, whose ports.ts re-exports it.

/** A TCP port that was free on `host` a moment ago (the OS picks it; tiny race until the caller binds it). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error(`could not get a free port on ${host}`))));
    });
  });
}
