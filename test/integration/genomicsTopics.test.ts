import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startServer } from '../../server';
import {
  chars,
  createTopic,
  EXTRA_GENOMICS_MEMBERS,
  g,
  genomicsActors,
  type GenomicsActors,
  ik,
  importGenomicsBundle,
  nextTopicNumber,
  topicPath,
  writeGenomicsBundle,
} from '../helpers/genomics';
import { http, seedMembers, startStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let a: GenomicsActors;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  a = await genomicsActors(stack);
  await importGenomicsBundle(stack);
});

afterAll(async () => {
  await stack?.stop();
});

const LIST_ITEM_FIELDS = [
  'uid',
  'batch',
  'topic',
  'title',
  'category',
  'workflow_status',
  'decision',
  'previous_decision',
  'requires_re_review',
  'decision_campaign_id',
  'submission_campaign_id',
  'disposition',
  'planned_reviewer_id',
  'current_package_version_id',
  'deliverable_selection_revision',
  'client_ids',
  'exclusivity',
  'campaign_id',
  'status',
  'phase',
  'classification',
];

const topicRow = async (uid: string) =>
  (
    await stack.dataSource.query(
      'SELECT id::text, title, category, tags, markdown IS NULL AS no_markdown FROM genomics_topics WHERE uid = $1',
      [uid],
    )
  )[0] as { id: string; title: string; category: string; tags: string[] } | undefined;

const eventKinds = async (uid: string): Promise<string[]> =>
  (
    await stack.dataSource.query(
      `SELECT e.kind FROM genomics_events e JOIN genomics_topics t ON t.id = e.topic_id WHERE t.uid = $1 ORDER BY e.id`,
      [uid],
    )
  ).map((r: { kind: string }) => r.kind);

const problem = (res: { status: number; body: any }, status: number, code?: string) => {
  expect(res.status).toBe(status);
  if (code) expect(res.body.code).toBe(code);
};

describe('import of the demo genomics bundle', () => {
  it('stores every file in S3 under its SHA-256 with the size S3 holds, and lists them as paths', async () => {
    const res = await g(stack, 'GET', topicPath('batch-001:1', '/paths'), { token: a.reviewer });
    expect(res.status).toBe(200);
    expect(res.body.reports).toHaveLength(1);
    expect(res.body.revisions).toHaveLength(1);
    expect(res.body.publications).toHaveLength(1);
    expect(res.body.publications[0].revision_id).toBe(res.body.revisions[0].id);
    for (const entry of [...res.body.reports, ...res.body.revisions, ...res.body.publications]) {
      const key = (entry.path as string).replace(`s3://${stack.config.s3.bucket}/`, '');
      expect(key).toBe(`sha256/${entry.sha256.slice(0, 2)}/${entry.sha256}`);
      const object = await stack.s3.send(new GetObjectCommand({ Bucket: stack.config.s3.bucket, Key: key }));
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      expect(bytes.length).toBe(entry.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
    }
  });

  it('creates topics with their brief, client links, campaign and an imported event', async () => {
    const res = await g(stack, 'GET', topicPath('batch-001:2'), { token: a.reviewer });
    expect(res.status).toBe(200);
    expect(res.body.topic).toMatchObject({
      uid: 'batch-001:2',
      title: 'CYP2D6 star-allele calling',
      exclusivity: 'SHARED',
      decision: 'PENDING',
      disposition: 'ACTIVE',
    });
    expect(res.body.topic.markdown).toContain('CYP2D6 star-allele calling');
    expect(res.body.clients.map((c: { name: string }) => c.name)).toEqual(['Acme Genomics', 'Helix Labs']);
    expect(res.body.campaigns.map((c: { id: string }) => c.id)).toEqual(['cmp-2026-spring']);
    expect(await eventKinds('batch-001:2')).toEqual(['imported']);
  });

  it('is a no-op when the unchanged bundle is imported again', async () => {
    const again = await importGenomicsBundle(stack);
    expect(again).toMatchObject({ unchanged: true, bytesUploaded: 0 });
    expect(await eventKinds('batch-001:1')).toEqual(['imported']);
  });

  it('refuses a bundle with a checksum mismatch or an unknown reference, writing nothing', async () => {
    const bad = await writeGenomicsBundle(
      {
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'bad-1', batch: 'batch-002' },
        topics: [{ topic: 1, title: 'x', client_ids: ['nobody'] }],
        reports: [
          { report_id: 'r', topic: 9, title: 't', file: { path: 'r.md', media_type: 'text/markdown' } },
        ],
      },
      { 'r.md': '# r' },
    );
    await expect(importGenomicsBundle(stack, bad)).rejects.toThrow();
    const mismatch = await writeGenomicsBundle(
      {
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'bad-2', batch: 'batch-002' },
        topics: [{ topic: 1, title: 'x' }],
        reports: [
          {
            report_id: 'r',
            topic: 1,
            title: 't',
            file: { path: 'r.md', media_type: 'text/markdown', sha256: '0'.repeat(64) },
          },
        ],
      },
      { 'r.md': '# r' },
    );
    await expect(importGenomicsBundle(stack, mismatch)).rejects.toThrow();
    const [{ count }] = await stack.dataSource.query(
      `SELECT count(*)::int AS count FROM genomics_topics WHERE batch = 'batch-002'`,
    );
    expect(count).toBe(0);
  });
});

describe('GET /api/v1/topics/{topicUid}/measurements', () => {
  it('keeps the two scopes apart; pass_rate = passes / completed', async () => {
    const res = await g(stack, 'GET', topicPath('batch-001:1', '/measurements'), { token: a.reviewer });
    expect(res.status).toBe(200);
    expect(
      res.body.items.map((m: any) => [m.scope, m.status, m.scientific_passes, m.completed, m.pass_rate]),
    ).toEqual([
      ['original_report', 'MEASURED', 42, 50, 0.84],
      ['public_package_rerun', 'MEASURED', 40, 50, 0.8],
    ]);
    for (const m of res.body.items) expect(m.artifact_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports missing evidence and zero completed attempts as UNAVAILABLE with null counts, never 0%', async () => {
    const missing = (await g(stack, 'GET', topicPath('batch-001:2', '/measurements'), { token: a.reviewer }))
      .body.items;
    expect(missing[1]).toMatchObject({
      scope: 'public_package_rerun',
      status: 'UNAVAILABLE',
      scientific_passes: null,
      completed: null,
      pass_rate: null,
      reason: 'public package rerun not executed yet',
    });
    const none = (await g(stack, 'GET', topicPath('batch-001:3', '/measurements'), { token: a.reviewer }))
      .body.items;
    expect(none).toEqual([
      expect.objectContaining({
        status: 'UNAVAILABLE',
        scientific_passes: null,
        completed: null,
        pass_rate: null,
        reason: 'no completed attempts',
      }),
    ]);
  });

  it('needs the read scope; 404 for an unknown topic', async () => {
    const noRead = await a.limited('idp|rui', ['paths:read']);
    problem(
      await g(stack, 'GET', topicPath('batch-001:1', '/measurements'), { token: noRead }),
      403,
      'insufficient_scope',
    );
    problem(await g(stack, 'GET', topicPath('batch-999:1', '/measurements'), { token: a.reviewer }), 404);
  });
});

describe('GET /api/v1/topics/{topicUid}/paths', () => {
  it('needs paths:read (read alone is refused) and answers a Reviewer', async () => {
    const readOnly = await a.limited('idp|rui', ['read']);
    problem(
      await g(stack, 'GET', topicPath('batch-001:1', '/paths'), { token: readOnly }),
      403,
      'insufficient_scope',
    );
    const pathsOnly = await a.limited('idp|rui', ['paths:read']);
    expect((await g(stack, 'GET', topicPath('batch-001:1', '/paths'), { token: pathsOnly })).status).toBe(
      200,
    );
  });

  it('lists a topic without files with three empty arrays', async () => {
    const res = await g(stack, 'GET', topicPath('batch-001:3', '/paths'), { token: a.reviewer });
    expect(res.body).toEqual({ reports: [], revisions: [], publications: [] });
  });
});

describe('POST /api/v1/topics', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    batch: 'batch-300',
    topic: nextTopicNumber(),
    title: 'Exome trio calls',
    category: 'rare-disease',
    markdown: '# Brief',
    ...over,
  });

  it('creates the topic/task record only (201 {topicUid}) and writes an event', async () => {
    const res = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body({ topic: 42 }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      topicUid: 'batch-300:42',
      recordType: 'topic',
      recordId: 'batch-300:42',
      record: null,
      topic: { uid: 'batch-300:42', topic: '42', decision: 'PENDING', workflow_status: 'UNASSIGNED' },
    });
    expect(await eventKinds('batch-300:42')).toEqual(['topic_created']);
    // No workflow or computation is started by a create.
    await expect(
      stack.temporal.workflow.getHandle('genomics-task/batch-300:42').describe(),
    ).rejects.toThrow();
  });

  it('answers a duplicate batch + topic with 409 and changes nothing', async () => {
    const res = await g(stack, 'POST', '/api/v1/topics', {
      token: a.owner,
      body: body({ topic: 42, title: 'Other' }),
    });
    problem(res, 409, 'topic_exists');
    expect((await topicRow('batch-300:42'))?.title).toBe('Exome trio calls');
  });

  it('is refused to a Reviewer (role) and to a key without write (scope)', async () => {
    problem(
      await g(stack, 'POST', '/api/v1/topics', { token: a.reviewer, body: body() }),
      403,
      'insufficient_role',
    );
    const readOnly = await a.limited('idp|olga', ['read']);
    problem(
      await g(stack, 'POST', '/api/v1/topics', { token: readOnly, body: body() }),
      403,
      'insufficient_scope',
    );
    problem(await g(stack, 'POST', '/api/v1/topics', { body: body() } as any), 401, 'unauthenticated');
    expect((await g(stack, 'POST', '/api/v1/topics', { token: a.admin, body: body() })).status).toBe(201);
  });

  it.each([
    ['title', 500, 501],
    ['category', 200, 201],
  ])('accepts a %s of %i characters and refuses %i', async (field, inside, outside) => {
    expect(
      (await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body({ [field]: chars(inside) }) }))
        .status,
    ).toBe(201);
    const res = await g(stack, 'POST', '/api/v1/topics', {
      token: a.owner,
      body: body({ [field]: chars(outside) }),
    });
    problem(res, 400, 'validation_failed');
    expect(res.body.errors[0].path).toBe(`body.${field}`);
  });

  it.each([
    ['batch-000', 201],
    ['batch-999999', 201],
    ['batch-12', 400],
    ['batch-1234567', 400],
    ['Batch-123', 400],
  ])('batch %s → %i', async (batch, status) => {
    expect((await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body({ batch }) })).status).toBe(
      status,
    );
  });

  it.each([
    [1, 201],
    [2147483647, 201],
    [0, 400],
    [2147483648, 400],
    [1.5, 400],
    ['7', 400],
  ])('topic number %p → %i', async (topic, status) => {
    const res = await g(stack, 'POST', '/api/v1/topics', {
      token: a.owner,
      body: body({ batch: 'batch-301', topic }),
    });
    expect(res.status).toBe(status);
  });

  it('stores a 2,000,000-character markdown exactly, even sent fully \\u-escaped (12 MB)', async () => {
    const markdown = chars(2_000_000, 'è€中文ü\n"');
    const json = JSON.stringify(body({ topic: 7, markdown })).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(Buffer.byteLength(json)).toBeGreaterThan(8 * 1024 * 1024);
    const created = await http(stack, 'POST', '/api/v1/topics', {
      token: a.owner,
      body: json,
      headers: { 'content-type': 'application/json', 'idempotency-key': ik() },
    });
    expect(created.status).toBe(201);
    const read = await g(stack, 'GET', topicPath(created.body.topicUid), { token: a.reviewer });
    expect(read.body.topic.markdown.length).toBe(2_000_000);
    expect(read.body.topic.markdown === markdown).toBe(true);
  });

  it('refuses a markdown of 2,000,001 characters, NUL characters and unpaired surrogates', async () => {
    const long = await g(stack, 'POST', '/api/v1/topics', {
      token: a.owner,
      body: body({ markdown: chars(2_000_001) }),
    });
    problem(long, 400, 'validation_failed');
    expect(long.body.errors[0].path).toBe('body.markdown');
    for (const bad of ['a\u0000b', 'lonely \ud800 surrogate']) {
      problem(await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body({ title: bad }) }), 400);
    }
  });

  it('refuses unknown and missing fields, naming them', async () => {
    const extra = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body({ owner: 'me' }) });
    problem(extra, 400);
    expect(extra.body.errors).toEqual([expect.objectContaining({ path: 'body.owner' })]);
    const { markdown: _m, ...missing } = body();
    const res = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: missing });
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'body.markdown' })]);
  });

  it('needs a well-formed Idempotency-Key; a retry returns the same receipt, another body is 409', async () => {
    problem(
      await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body(), key: null }),
      400,
      'idempotency_key_required',
    );
    problem(await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body(), key: 'short' }), 400);
    problem(
      await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: body(), key: `${'k'.repeat(128)}x` }),
      400,
    );
    const key = `K.${'x'.repeat(14)}`; // 16 characters, every allowed class
    const request = body();
    const first = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: request, key });
    const second = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: request, key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventKinds(first.body.topicUid)).toEqual(['topic_created']);
    problem(
      await g(stack, 'POST', '/api/v1/topics', {
        token: a.owner,
        body: { ...request, title: 'changed' },
        key,
      }),
      409,
      'idempotency_key_reused',
    );
  });

  it('returns the same receipt for a retry after an API restart (receipts live in PostgreSQL)', async () => {
    const key = ik();
    const request = body();
    const first = await g(stack, 'POST', '/api/v1/topics', { token: a.owner, body: request, key });
    const restarted = await startServer(stack.config, { validateResponses: true });
    try {
      const response = await fetch(`${restarted.url}/api/v1/topics`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${a.owner}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify(request),
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual(first.body);
    } finally {
      await restarted.close();
    }
  });
});

describe('GET /api/v1/topics/{topicUid}', () => {
  it('needs read and paths:read: either alone is refused', async () => {
    for (const scopes of [['read'], ['paths:read']] as const) {
      const token = await a.limited('idp|rui', [...scopes]);
      problem(await g(stack, 'GET', topicPath('batch-001:1'), { token }), 403, 'insufficient_scope');
    }
    const both = await a.limited('idp|rui', ['read', 'paths:read']);
    expect((await g(stack, 'GET', topicPath('batch-001:1'), { token: both })).status).toBe(200);
  });

  it('takes a topicUid of up to 256 characters (404 when unknown) and refuses 257', async () => {
    problem(await g(stack, 'GET', topicPath(chars(256)), { token: a.reviewer }), 404, 'not_found');
    problem(await g(stack, 'GET', topicPath(chars(257)), { token: a.reviewer }), 400);
    problem(await g(stack, 'GET', '/api/v1/topics/bad%00uid', { token: a.reviewer }), 400);
  });
});

describe('PUT /api/v1/topics/{topicUid}', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await createTopic(stack, a.owner);
  });

  it('updates title and category and answers with a receipt', async () => {
    const res = await g(stack, 'PUT', topicPath(uid), {
      token: a.owner,
      body: { title: chars(180), category: chars(180, 'c') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ topicUid: uid, recordType: 'topic', topic: { title: chars(180) } });
    expect(await eventKinds(uid)).toEqual(['topic_created', 'topic_updated']);
  });

  it('has tighter bounds than create: 181 characters are refused for title and category', async () => {
    for (const over of [{ title: chars(181) }, { category: chars(181) }]) {
      const res = await g(stack, 'PUT', topicPath(uid), {
        token: a.owner,
        body: { title: 't', category: 'c', ...over },
      });
      problem(res, 400, 'validation_failed');
    }
    problem(await g(stack, 'PUT', topicPath(uid), { token: a.owner, body: { title: 't' } }), 400);
    problem(
      await g(stack, 'PUT', topicPath(uid), { token: a.owner, body: { title: 't', category: 'c', x: 1 } }),
      400,
    );
    expect((await topicRow(uid))?.title).toBe(chars(180));
  });

  it('is refused to a Reviewer and to a key without write; 404 for an unknown topic', async () => {
    const request = { title: 't', category: 'c' };
    problem(
      await g(stack, 'PUT', topicPath(uid), { token: a.reviewer, body: request }),
      403,
      'insufficient_role',
    );
    const readOnly = await a.limited('idp|olga', ['read']);
    problem(
      await g(stack, 'PUT', topicPath(uid), { token: readOnly, body: request }),
      403,
      'insufficient_scope',
    );
    problem(await g(stack, 'PUT', topicPath('batch-999:9'), { token: a.owner, body: request }), 404);
  });
});

describe('PUT /api/v1/topics/{topicUid}/tags', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await createTopic(stack, a.owner);
  });

  it('replaces the set, dropping duplicates and keeping first-occurrence order', async () => {
    const res = await g(stack, 'PUT', topicPath(uid, '/tags'), {
      token: a.owner,
      body: { tags: ['splice', 'brca1', 'splice', 'BRCA1', 'brca1', 'qc'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['splice', 'brca1', 'BRCA1', 'qc']);
    expect(res.body.topic.tags).toEqual(['splice', 'brca1', 'BRCA1', 'qc']);
    expect(
      (await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.owner, body: { tags: [] } })).body.tags,
    ).toEqual([]);
    expect(await eventKinds(uid)).toEqual(['topic_created', 'tags_replaced', 'tags_replaced']);
  });

  it('takes 50 tags of 64 characters; refuses 51 tags and a 65-character tag', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `${i}`.padStart(64, 't'));
    expect(
      (await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.owner, body: { tags: fifty } })).body.tags,
    ).toHaveLength(50);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.owner, body: { tags: [...fifty, 'x'] } }),
      400,
    );
    problem(
      await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.owner, body: { tags: [chars(65)] } }),
      400,
    );
    problem(await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.owner, body: { tags: 'a,b' } }), 400);
    expect((await topicRow(uid))?.tags).toEqual(fifty);
  });

  it('is refused to a Reviewer and to a key without write', async () => {
    problem(
      await g(stack, 'PUT', topicPath(uid, '/tags'), { token: a.reviewer, body: { tags: [] } }),
      403,
      'insufficient_role',
    );
    const readOnly = await a.limited('idp|olga', ['read']);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/tags'), { token: readOnly, body: { tags: [] } }),
      403,
      'insufficient_scope',
    );
  });
});

describe('GET /api/v1/tasks and /api/v1/topics', () => {
  it('returns every list-item field on every item, bigint-strings as strings', async () => {
    for (const path of ['/api/v1/tasks', '/api/v1/topics']) {
      const res = await g(stack, 'GET', `${path}?limit=100`, { token: a.owner });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeGreaterThan(3);
      for (const item of res.body.items) {
        for (const field of LIST_ITEM_FIELDS) expect(item).toHaveProperty(field);
        expect(typeof item.topic).toBe('string');
        expect(typeof item.deliverable_selection_revision).toBe('string');
        for (const id of item.client_ids) expect(typeof id).toBe('string');
      }
    }
  });

  it('pages in (batch, topic) order with no duplicates or gaps while topics are added', async () => {
    const batch = 'batch-700';
    for (const topic of [10, 30, 50, 70, 90]) await createTopic(stack, a.owner, { batch, topic });
    const seen: string[] = [];
    let next: { batch: string; topic: number } | null = null;
    let pages = 0;
    do {
      const cursor: string = next ? `&afterBatch=${next.batch}&afterTopic=${next.topic}` : '';
      const res = await g(stack, 'GET', `/api/v1/topics?limit=2&search=${batch}:${cursor}`, {
        token: a.reviewer,
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { uid: string }) => i.uid));
      next = res.body.next;
      if (pages === 0) {
        // Added behind the cursor (not shown, as keyset order promises) and ahead of it (shown once).
        await createTopic(stack, a.owner, { batch, topic: 20 });
        await createTopic(stack, a.owner, { batch, topic: 60 });
      }
      pages += 1;
    } while (next);
    expect(seen).toEqual([10, 30, 50, 60, 70, 90].map((t) => `${batch}:${t}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('orders by batch first, then by topic number (not as text)', async () => {
    await createTopic(stack, a.owner, { batch: 'batch-701', topic: 9 });
    await createTopic(stack, a.owner, { batch: 'batch-701', topic: 10 });
    const res = await g(stack, 'GET', '/api/v1/topics?search=batch-701', { token: a.reviewer });
    expect(res.body.items.map((i: { topic: string }) => i.topic)).toEqual(['9', '10']);
  });

  it('searches uid, title and category as a case-insensitive literal substring', async () => {
    const uid = await createTopic(stack, a.owner, {
      batch: 'batch-702',
      title: 'Gain of 100% _exon_ depth',
      category: 'CNV',
    });
    const search = async (text: string) =>
      (
        await g(stack, 'GET', `/api/v1/topics?search=${encodeURIComponent(text)}`, { token: a.reviewer })
      ).body.items.map((i: { uid: string }) => i.uid);
    expect(await search('100% _EXON_')).toEqual([uid]);
    expect(await search('cnv')).toContain(uid);
    expect(await search('batch-702:')).toEqual([uid]);
    expect(await search('100%_')).toEqual([]);
    expect(await search('g_in')).toEqual([]);
  });

  it('filters by disposition', async () => {
    const res = await g(stack, 'GET', '/api/v1/topics?disposition=DISCARDED', { token: a.reviewer });
    expect(res.body).toEqual({ items: [], next: null });
    const active = await g(stack, 'GET', '/api/v1/topics?disposition=ACTIVE&limit=1', { token: a.reviewer });
    expect(active.body.items[0].disposition).toBe('ACTIVE');
    problem(await g(stack, 'GET', '/api/v1/topics?disposition=active', { token: a.reviewer }), 400);
  });

  it.each(['/api/v1/tasks', '/api/v1/topics'])(
    '%s: limit 1 and 100 are accepted, 0 and 101 refused',
    async (path) => {
      expect((await g(stack, 'GET', `${path}?limit=1`, { token: a.owner })).body.items).toHaveLength(1);
      expect((await g(stack, 'GET', `${path}?limit=100`, { token: a.owner })).status).toBe(200);
      for (const limit of ['0', '101', 'x', '1.5'])
        problem(await g(stack, 'GET', `${path}?limit=${limit}`, { token: a.owner }), 400);
    },
  );

  it.each(['/api/v1/tasks', '/api/v1/topics'])(
    '%s: search of 200 characters is accepted, 201 refused',
    async (path) => {
      expect((await g(stack, 'GET', `${path}?search=${chars(200)}`, { token: a.owner })).status).toBe(200);
      problem(await g(stack, 'GET', `${path}?search=${chars(201)}`, { token: a.owner }), 400);
    },
  );

  it('/tasks: afterBatch must be a batch, afterTopic 1 to 2147483647', async () => {
    const ok = async (q: string) => (await g(stack, 'GET', `/api/v1/tasks?${q}`, { token: a.owner })).status;
    expect(await ok('afterBatch=batch-000&afterTopic=1')).toBe(200);
    expect(await ok('afterBatch=batch-999999&afterTopic=2147483647')).toBe(200);
    expect(await ok('afterBatch=batch-12&afterTopic=1')).toBe(400);
    expect(await ok('afterBatch=batch-1234567&afterTopic=1')).toBe(400);
    expect(await ok('afterBatch=zzz&afterTopic=1')).toBe(400);
    expect(await ok('afterBatch=batch-001&afterTopic=0')).toBe(400);
    expect(await ok('afterBatch=batch-001&afterTopic=2147483648')).toBe(400);
  });

  it('/topics: afterBatch any string of up to 30 characters, afterTopic any integer from 1', async () => {
    const ok = async (q: string) => (await g(stack, 'GET', `/api/v1/topics?${q}`, { token: a.owner })).status;
    expect(await ok(`afterBatch=${chars(30)}&afterTopic=1`)).toBe(200);
    expect(await ok(`afterBatch=zzz&afterTopic=2147483648`)).toBe(200);
    expect(await ok(`afterBatch=batch-001&afterTopic=9007199254740991`)).toBe(200);
    expect(await ok(`afterBatch=${chars(31)}&afterTopic=1`)).toBe(400);
    expect(await ok('afterBatch=batch-001&afterTopic=0')).toBe(400);
    const after = await g(stack, 'GET', '/api/v1/topics?afterBatch=batch-001&afterTopic=2', {
      token: a.owner,
    });
    expect(after.body.items[0].uid).toBe('batch-001:3');
  });

  it.each(['/api/v1/tasks', '/api/v1/topics'])(
    '%s: afterBatch and afterTopic come together or not at all',
    async (path) => {
      for (const q of ['afterBatch=batch-001', 'afterTopic=1']) {
        const res = await g(stack, 'GET', `${path}?${q}`, { token: a.owner });
        problem(res, 400, 'validation_failed');
      }
      problem(await g(stack, 'GET', `${path}?unknown=1`, { token: a.owner }), 400);
    },
  );

  it('/tasks shows a Reviewer only the tasks planned for or assigned to them; /topics shows all', async () => {
    const tasks = await g(stack, 'GET', '/api/v1/tasks?limit=100', { token: a.reviewer });
    expect(tasks.body).toEqual({ items: [], next: null });
    const topics = await g(stack, 'GET', '/api/v1/topics?limit=5', { token: a.reviewer });
    expect(topics.body.items).toHaveLength(5);
  });

  it('needs the read scope', async () => {
    const writeOnly = await a.limited('idp|rui', ['write']);
    for (const path of ['/api/v1/tasks', '/api/v1/topics']) {
      problem(await g(stack, 'GET', path, { token: writeOnly }), 403, 'insufficient_scope');
      problem(await g(stack, 'GET', path, { token: 'rfg_nope' }), 401);
    }
  });
});

describe('notes', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await createTopic(stack, a.owner);
  });

  const create = (token: string, body: unknown, key?: string) =>
    g(stack, 'POST', topicPath(uid, '/notes'), { token, body, key });

  it('POST creates a topic note (campaignId null) and a campaign note, each with an event (201 receipt)', async () => {
    const topicNote = await create(a.reviewer, { body: 'Coverage looks thin on exon 11.', campaignId: null });
    expect(topicNote.status).toBe(201);
    expect(topicNote.body).toMatchObject({
      recordType: 'note',
      record: { kind: 'topic', campaign_id: null, body: 'Coverage looks thin on exon 11.', edit_count: 0 },
    });
    expect(topicNote.body.record.body_sha256).toBe(
      createHash('sha256').update('Coverage looks thin on exon 11.').digest('hex'),
    );
    const campaignNote = await create(a.owner, {
      body: 'In scope for spring.',
      campaignId: 'cmp-2026-spring',
    });
    expect(campaignNote.body.record).toMatchObject({ kind: 'campaign', campaign_id: 'cmp-2026-spring' });
    expect(await eventKinds(uid)).toEqual(['topic_created', 'note_created', 'note_created']);
    const detail = await g(stack, 'GET', topicPath(uid), { token: a.owner });
    expect(detail.body.campaigns.map((c: { id: string }) => c.id)).toEqual(['cmp-2026-spring']);
  });

  it('POST bounds: body 50,000 / 50,001, campaignId 256 / 257; an unknown campaign is 400', async () => {
    expect((await create(a.reviewer, { body: chars(50_000), campaignId: null })).status).toBe(201);
    problem(await create(a.reviewer, { body: chars(50_001), campaignId: null }), 400);
    problem(await create(a.reviewer, { body: 'x', campaignId: chars(256) }), 400, 'unknown_campaign');
    problem(await create(a.reviewer, { body: 'x', campaignId: chars(257) }), 400);
    problem(await create(a.reviewer, { body: 'x' }), 400);
    problem(await create(a.reviewer, { body: 'x', campaignId: null, pinned: true }), 400);
  });

  it('POST needs write; a retry with the key returns the same receipt and creates one note', async () => {
    const readOnly = await a.limited('idp|rui', ['read']);
    problem(await create(readOnly, { body: 'x', campaignId: null }), 403, 'insufficient_scope');
    const key = ik();
    const first = await create(a.reviewer, { body: 'once', campaignId: null }, key);
    const again = await create(a.reviewer, { body: 'once', campaignId: null }, key);
    expect(again.body).toEqual(first.body);
    const [{ count }] = await stack.dataSource.query(
      `SELECT count(*)::int AS count FROM genomics_notes WHERE body = 'once'`,
    );
    expect(count).toBe(1);
    problem(
      await create(a.reviewer, { body: 'twice', campaignId: null }, key),
      409,
      'idempotency_key_reused',
    );
  });

  it('GET lists notes newest first with limit and before', async () => {
    const all = (await g(stack, 'GET', topicPath(uid, '/notes?limit=100'), { token: a.reviewer })).body.items;
    const ids = all.map((n: { id: string }) => Number(n.id));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    const page = await g(stack, 'GET', topicPath(uid, `/notes?limit=1&before=${all[0].id}`), {
      token: a.reviewer,
    });
    expect(page.body.items.map((n: { id: string }) => n.id)).toEqual([all[1].id]);
    const beyond = await g(stack, 'GET', topicPath(uid, '/notes?before=9999999999999999999'), {
      token: a.reviewer,
    });
    expect(beyond.body.items).toHaveLength(all.length);
    for (const q of [
      'limit=0',
      'limit=101',
      'before=0',
      'before=01',
      'before=12345678901234567890',
      'before=x',
    ]) {
      problem(await g(stack, 'GET', topicPath(uid, `/notes?${q}`), { token: a.reviewer }), 400);
    }
    const writeOnly = await a.limited('idp|rui', ['write']);
    problem(await g(stack, 'GET', topicPath(uid, '/notes'), { token: writeOnly }), 403);
  });

  it('PUT edits when expectedBodySha256 matches; a mismatch is 409 with nothing changed', async () => {
    const note = (await create(a.reviewer, { body: 'first draft', campaignId: null })).body.record;
    const path = topicPath(uid, `/notes/${note.id}`);
    const edited = await g(stack, 'PUT', path, {
      token: a.reviewer,
      body: { body: 'second draft', expectedBodySha256: note.body_sha256 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.record).toMatchObject({ id: note.id, body: 'second draft', edit_count: 1 });
    const stale = await g(stack, 'PUT', path, {
      token: a.reviewer,
      body: { body: 'third draft', expectedBodySha256: note.body_sha256 },
    });
    problem(stale, 409, 'note_body_changed');
    expect(stale.body.current_body_sha256).toBe(edited.body.record.body_sha256);
    const [row] = await stack.dataSource.query('SELECT body, edit_count FROM genomics_notes WHERE id = $1', [
      note.id,
    ]);
    expect(row).toEqual({ body: 'second draft', edit_count: 1 });
    expect((await eventKinds(uid)).filter((k) => k === 'note_edited')).toHaveLength(1);
  });

  it('PUT: only the author; noteId pattern, bounds and unknown ids', async () => {
    const note = (await create(a.reviewer, { body: 'mine', campaignId: null })).body.record;
    const body = { body: 'edit', expectedBodySha256: note.body_sha256 };
    problem(
      await g(stack, 'PUT', topicPath(uid, `/notes/${note.id}`), { token: a.owner, body }),
      403,
      'forbidden',
    );
    const readOnly = await a.limited('idp|rui', ['read']);
    problem(
      await g(stack, 'PUT', topicPath(uid, `/notes/${note.id}`), { token: readOnly, body }),
      403,
      'insufficient_scope',
    );
    for (const noteId of ['0', '01', 'abc', '12345678901234567890']) {
      problem(await g(stack, 'PUT', topicPath(uid, `/notes/${noteId}`), { token: a.reviewer, body }), 400);
    }
    for (const noteId of ['9999999999999999999', '999999']) {
      problem(await g(stack, 'PUT', topicPath(uid, `/notes/${noteId}`), { token: a.reviewer, body }), 404);
    }
    const path = topicPath(uid, `/notes/${note.id}`);
    problem(
      await g(stack, 'PUT', path, {
        token: a.reviewer,
        body: { ...body, expectedBodySha256: 'A'.repeat(64) },
      }),
      400,
    );
    problem(await g(stack, 'PUT', path, { token: a.reviewer, body: { ...body, body: chars(50_001) } }), 400);
    const max = await g(stack, 'PUT', path, { token: a.reviewer, body: { ...body, body: chars(50_000) } });
    expect(max.status).toBe(200);
  });
});

describe('events, reports, revisions and assignments lists', () => {
  it.each(['events', 'reports', 'revisions', 'assignments'])(
    '%s: newest first, limit and before',
    async (list) => {
      const base = topicPath('batch-001:1', `/${list}`);
      const res = await g(stack, 'GET', base, { token: a.owner });
      expect(res.status).toBe(200);
      const ids = res.body.items.map((i: { id: string }) => Number(i.id));
      expect(ids).toEqual([...ids].sort((x, y) => y - x));
      expect((await g(stack, 'GET', `${base}?limit=100&before=1`, { token: a.owner })).body.items).toEqual(
        [],
      );
      for (const q of ['limit=0', 'limit=101', 'before=0', 'before=-1', 'other=1']) {
        problem(await g(stack, 'GET', `${base}?${q}`, { token: a.owner }), 400);
      }
      problem(await g(stack, 'GET', topicPath('batch-999:1', `/${list}`), { token: a.owner }), 404);
    },
  );

  it('events list the imported event; reports and revisions carry path, size and SHA-256', async () => {
    const events = await g(stack, 'GET', topicPath('batch-001:1', '/events?limit=1'), { token: a.reviewer });
    expect(events.body.items[0]).toMatchObject({ kind: 'imported', actor_id: null });
    const reports = await g(stack, 'GET', topicPath('batch-001:1', '/reports'), { token: a.reviewer });
    expect(reports.body.items[0]).toMatchObject({ source_id: 'r-1', size: expect.any(Number) });
    const revisions = await g(stack, 'GET', topicPath('batch-001:1', '/revisions'), { token: a.reviewer });
    expect(revisions.body.items[0]).toMatchObject({ source_id: 'pkg-1-v1', status: 'COMPLETED', number: 1 });
  });

  it('reports and revisions need read and paths:read; events and assignments need read', async () => {
    const readOnly = await a.limited('idp|rui', ['read']);
    const pathsOnly = await a.limited('idp|rui', ['paths:read']);
    for (const list of ['reports', 'revisions']) {
      problem(
        await g(stack, 'GET', topicPath('batch-001:1', `/${list}`), { token: readOnly }),
        403,
        'insufficient_scope',
      );
      problem(
        await g(stack, 'GET', topicPath('batch-001:1', `/${list}`), { token: pathsOnly }),
        403,
        'insufficient_scope',
      );
    }
    for (const list of ['events', 'assignments']) {
      expect((await g(stack, 'GET', topicPath('batch-001:1', `/${list}`), { token: readOnly })).status).toBe(
        200,
      );
      problem(
        await g(stack, 'GET', topicPath('batch-001:1', `/${list}`), { token: pathsOnly }),
        403,
        'insufficient_scope',
      );
    }
  });
});
