import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client as PgClient } from 'pg';
import { createDatabase, dropDatabase } from '../../infra/postgres';
import { ensureNamespace } from '../../infra/temporalDevServer';
import { createS3Client } from '../../storage/objectStore';
import { type NpmStart, startNpmStart } from '../helpers/npmStart';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Traces as an operator meets them: `npm start` with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver
 * on loopback (this test). One review action sent with a W3C traceparent yields spans of the API and of the
 * worker under that one trace id, linked parent to child from the HTTP request through the Workflow Update into
 * the workflow, its persistence activity and its PostgreSQL statements; a download reaches S3 in its trace.
 */
jest.setTimeout(300_000);

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** OTLP/JSON ids are hex; a receiver that got base64 (protobuf-style JSON) converts them. */
const hexId = (id: string | undefined): string =>
  !id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

/** A minimal OTLP/HTTP (JSON) trace receiver: keeps every span it is sent. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && /json/.test(request.headers['content-type'] ?? '')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = (resourceSpans.resource?.attributes ?? []).find(
            (a: { key: string }) => a.key === 'service.name',
          )?.value?.stringValue;
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                service,
                traceId: hexId(span.traceId),
                spanId: hexId(span.spanId),
                parentSpanId: hexId(span.parentSpanId),
                name: span.name,
                attributes: Object.fromEntries(
                  (span.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [
                    a.key,
                    Object.values(a.value)[0],
                  ]),
                ),
              });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('traces of a running system, through an OTLP receiver', () => {
  const env = readTestEnv();
  const suffix = randomBytes(4).toString('hex');
  const database = `${env.templateDatabase}_tracing${suffix}`;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let system: NpmStart;
  let token: string;
  let db: PgClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    const namespace = `tracing-${suffix}`;
    const bucket = `referee-tracing-${suffix}`;
    const [databaseUrl] = await Promise.all([
      createDatabase(env.pgAdminUrl, database, env.templateDatabase),
      ensureNamespace(env.temporalAddress, namespace),
    ]);
    const s3 = createS3Client({
      endpoint: env.s3Endpoint,
      region: 'us-east-1',
      accessKeyId: env.s3AccessKeyId,
      secretAccessKey: env.s3SecretAccessKey,
      forcePathStyle: true,
    });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    s3.destroy();
    // No REFEREE_WORKFLOW_BUNDLE: the worker bundles its workflows with the OpenTelemetry workflow interceptors.
    system = await startNpmStart({
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `referee-tracing-${suffix}`,
      S3_ENDPOINT: env.s3Endpoint,
      S3_ACCESS_KEY_ID: env.s3AccessKeyId,
      S3_SECRET_ACCESS_KEY: env.s3SecretAccessKey,
      S3_BUCKET: bucket,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const match = /^\s+math\s+(\S+)$/m.exec(system.output());
    if (!match) throw new Error(`npm start printed no math admin key:\n${system.output()}`);
    token = match[1];
    db = new PgClient({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await system?.stop();
    await receiver?.close();
    await dropDatabase(env.pgAdminUrl, database).catch(() => undefined);
  });

  /** Waits until the trace holds spans matching every predicate; returns the trace's spans. */
  async function traceWith(traceId: string, wanted: Record<string, (s: ReceivedSpan) => boolean>) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      const missing = Object.entries(wanted).filter(([, match]) => !spans.some(match));
      if (missing.length === 0) return spans;
      if (Date.now() > deadline)
        throw new Error(
          `trace ${traceId} lacks ${missing.map(([what]) => what).join(', ')}; it has:\n` +
            spans.map((s) => `${s.service} ${s.name}`).join('\n'),
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('one review action: API and worker spans under the caller’s trace id, from HTTP to PostgreSQL', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const [{ id: assignee }] = (
      await db.query(`SELECT id::text FROM members WHERE service = 'math' AND identity_id = 'idp|rui'`)
    ).rows;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const task = (await (await fetch(`${system.baseUrl}/api/math/tasks/demo-q1-a`, { headers })).json()) as {
      version: number;
    };
    const response = await fetch(`${system.baseUrl}/api/math/tasks/demo-q1-a`, {
      method: 'POST',
      headers: { ...headers, traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify({ version: task.version, action: 'assign', assignee_id: assignee }),
    });
    expect(response.status).toBe(200);

    const isApi = (s: ReceivedSpan) => s.service === 'referee-api';
    const isWorker = (s: ReceivedSpan) => s.service === 'referee-worker';
    const isSql = (s: ReceivedSpan) => s.attributes['db.system'] === 'postgresql' || /^pg\./.test(s.name);
    const spans = await traceWith(traceId, {
      'the API request span': (s) => isApi(s) && s.name === 'POST math.applyTaskAction',
      'the API’s Workflow Update call': (s) => isApi(s) && /Update/.test(s.name),
      'an API PostgreSQL statement': (s) => isApi(s) && isSql(s),
      'the workflow’s update handler': (s) => isWorker(s) && /^HandleUpdate:/.test(s.name),
      'the persistence activity': (s) => isWorker(s) && /persistMathTransition/.test(s.name),
      'a worker PostgreSQL statement': (s) => isWorker(s) && isSql(s),
    });

    // One tree: the request span continues the caller's span, and every other span's parent is in the trace.
    const root = spans.find((s) => s.name === 'POST math.applyTaskAction')!;
    expect(root.parentSpanId).toBe(callerSpanId);
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s !== root && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);

    // The API's log line of the request carries the trace id.
    const log = await readFile(join(system.dataDir, 'logs', 'api.log'), 'utf8');
    const line = log
      .split('\n')
      .filter((l) => l.includes(`"trace_id":"${traceId}"`))
      .map((l) => JSON.parse(l) as { msg: string; operationId?: string });
    expect(line.some((l) => l.msg === 'request' && l.operationId === 'math.applyTaskAction')).toBe(true);
  });

  it('a verified download reaches S3 inside its request’s trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${system.baseUrl}/api/math/artifacts/demo-art-q1-report/download`, {
      headers: {
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await traceWith(traceId, {
      'the download request span': (s) =>
        s.service === 'referee-api' && s.name === 'GET math.downloadArtifact',
      'an S3 call': (s) => s.service === 'referee-api' && s.attributes['rpc.service'] === 'S3',
    });
  });
});
