/**
 * The runtime's own share of the API's RSS under streamed downloads: a bare HTTP server streams a 1 MiB file to
 * four keep-alive clients for a few seconds under each Node binary given, with the API's V8 flags, and prints its
 * peak RSS beside the V8 heap in use and the external memory at the end. No Referee code runs, so a difference
 * between binaries is the runtime's.
 *
 *   npx tsx bench/streamingRss.ts --node /usr/bin/node --node node_modules/.bin/node [--seconds 8]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SERVICE_NODE_FLAGS } from '../infra/processes';

const LOOP = `
const fs = require('fs'), http = require('http');
const [file, ms] = process.argv.slice(-2);
const server = http.createServer((req, res) => {
  res.setHeader('content-length', fs.statSync(file).size);
  fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
});
server.listen(0, '127.0.0.1', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const get = () => new Promise((done) =>
    http.get({ host: '127.0.0.1', port: server.address().port, agent }, (res) => res.resume().on('end', done)));
  let requests = 0, peak = 0;
  const end = Date.now() + Number(ms);
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  await Promise.all([0, 1, 2, 3].map(async () => { while (Date.now() < end) { await get(); requests++; } }));
  clearInterval(sampler);
  const m = process.memoryUsage(), mib = (n) => Math.round(n / 2 ** 20);
  console.log(JSON.stringify({ version: process.version, requests, peakRssMiB: mib(peak), heapUsedMiB: mib(m.heapUsed), externalMiB: mib(m.external) }));
  process.exit(0);
});`;

const { values } = parseArgs({
  options: { node: { type: 'string', multiple: true }, seconds: { type: 'string', default: '8' } },
});
const binaries = values.node?.length ? values.node : [process.execPath];
const dir = mkdtempSync(join(tmpdir(), 'referee-streaming-rss-'));
try {
  const file = join(dir, 'object');
  writeFileSync(file, randomBytes(1 << 20));
  for (const node of binaries) {
    const ms = String(Number(values.seconds) * 1000);
    const out = execFileSync(node, [...SERVICE_NODE_FLAGS.api, '-e', LOOP, file, ms], { encoding: 'utf8' });
    console.log(`${node}: ${out.trim()}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
