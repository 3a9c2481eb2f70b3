import { PutObjectCommand } from '@aws-sdk/client-s3';
import { objectKeys, pictures, postBugReport, rawRequest, sha256 } from '../helpers/files';
import {
  http,
  memberId,
  mintKey,
  pastRecheckWindow,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

const MiB = 1024 * 1024;

let stack: TestStack;
let admin: string;
let owner: string;
let rui: string;
let sofia: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  [admin, owner, rui, sofia] = await Promise.all(
    ['idp|ada', 'idp|olga', 'idp|rui', 'idp|sofia'].map(
      async (id) => (await mintKey(stack, 'math', id)).token,
    ),
  );
});

afterAll(async () => {
  await stack?.stop();
});

const reportCount = async () =>
  Number((await stack.dataSource.query('SELECT count(*) FROM math_bug_reports'))[0].count);

describe('POST /api/bug-reports', () => {
  it('stores a report with a PNG screenshot and returns a creation receipt', async () => {
    const png = pictures.png(4096);
    const res = await postBugReport(stack, rui, {
      description: 'The task list jumps when I open a report.',
      page_path: '/math/tasks/demo-q1-a?tab=files',
      picture: { bytes: png, type: 'image/png', name: 'screen.png' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      report_id: expect.stringMatching(/^[1-9][0-9]*$/),
      page_path: '/math/tasks/demo-q1-a?tab=files',
      picture: { media_type: 'image/png', size_bytes: png.length, sha256: sha256(png) },
      created_at: expect.any(String),
    });
  });

  it('judges the picture by its bytes: a JPEG declared as text and a WebP are accepted as what they are', async () => {
    const jpeg = await postBugReport(stack, rui, {
      description: 'jpeg',
      picture: { bytes: pictures.jpeg(), type: 'text/plain', name: 'notes.txt' },
    });
    expect(jpeg.status).toBe(201);
    expect(jpeg.body.picture.media_type).toBe('image/jpeg');
    const webp = await postBugReport(stack, rui, {
      description: 'webp',
      picture: { bytes: pictures.webp(), type: 'application/octet-stream', name: 'x' },
    });
    expect(webp.body.picture.media_type).toBe('image/webp');
  });

  it('refuses a picture whose bytes are not an image, whatever its declared type, and stores nothing', async () => {
    const rows = await reportCount();
    const objects = await objectKeys(stack, 'uploads/');
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      const res = await postBugReport(stack, rui, {
        description: 'fake picture',
        picture: { bytes: Buffer.from('<svg onload="alert(1)"></svg>'), type, name: 'shot.png' },
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(await reportCount()).toBe(rows);
    expect(await objectKeys(stack, 'uploads/')).toEqual(objects);
  });

  it('accepts a report without a picture', async () => {
    const res = await postBugReport(stack, sofia, { description: 'No screenshot this time.' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ picture: null, page_path: null });
  });

  it('accepts a picture of exactly 8 MiB and refuses 8 MiB + 1 with 413, storing nothing', async () => {
    const exact = await postBugReport(stack, owner, {
      description: 'big screenshot',
      picture: { bytes: pictures.png(8 * MiB), type: 'image/png', name: 'big.png' },
    });
    expect(exact.status).toBe(201);
    const rows = await reportCount();
    const objects = await objectKeys(stack, 'uploads/');
    const over = await postBugReport(stack, owner, {
      description: 'too big',
      picture: { bytes: pictures.png(8 * MiB + 1), type: 'image/png', name: 'big.png' },
    });
    expect(over.status).toBe(413);
    expect(await reportCount()).toBe(rows);
    expect(await objectKeys(stack, 'uploads/')).toEqual(objects);
  });

  it('validates description and page_path, refusing unknown fields', async () => {
    const rows = await reportCount();
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'body.description'],
      [{ description: '   ' }, 'body.description'],
      [{ description: 'x'.repeat(10_001) }, 'body.description'],
      [{ description: 'ok', page_path: 'relative/path' }, 'body.page_path'],
      [{ description: 'ok', page_path: '//evil.example/x' }, 'body.page_path'],
      [{ description: 'ok', page_path: '/a\\b' }, 'body.page_path'],
      [{ description: 'ok', page_path: '/a\nb' }, 'body.page_path'],
      [{ description: 'ok', page_path: `/${'a'.repeat(2048)}` }, 'body.page_path'],
      [{ description: 'ok', severity: 'high' }, 'body.severity'],
    ];
    for (const [fields, path] of cases) {
      const { description, page_path, ...extra } = fields;
      const res = await postBugReport(stack, rui, { description, page_path }, extra);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const longest = await postBugReport(stack, rui, { description: 'y'.repeat(10_000), page_path: '/' });
    expect(longest.status).toBe(201);
    expect(await reportCount()).toBe(rows + 1);
  });

  it('refuses a body that is not multipart/form-data', async () => {
    const res = await http(stack, 'POST', '/api/bug-reports', { token: rui, body: { description: 'json' } });
    expect(res.status).toBe(415);
  });

  it('needs both write and files:write, even without a picture', async () => {
    for (const scopes of [
      ['read', 'write'],
      ['read', 'files:write'],
    ] as const) {
      const key = await mintKey(stack, 'math', 'idp|rui', { scopes: [...scopes] });
      const res = await postBugReport(stack, key.token, { description: 'scoped' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
    }
  });
});

describe('GET /api/bug-reports and GET /api/bug-reports/{report_id}/screenshot', () => {
  let ruiReport: { report_id: string; picture: { sha256: string } };
  let png: Buffer;

  beforeAll(async () => {
    png = pictures.png(2048);
    ruiReport = (
      await postBugReport(stack, rui, {
        description: 'rui’s private report',
        picture: { bytes: png, type: 'image/png', name: 'mine.png' },
      })
    ).body;
  });

  it('lists a Reviewer’s or Owner’s own reports only, newest first, with screenshot URLs', async () => {
    const ruiId = await memberId(stack, 'math', 'idp|rui');
    const list = await http(stack, 'GET', '/api/bug-reports', { token: rui });
    expect(list.status).toBe(200);
    expect(list.body.bug_reports.every((r: { submitter_id: string }) => r.submitter_id === ruiId)).toBe(true);
    expect(list.body.bug_reports[0]).toMatchObject({
      report_id: ruiReport.report_id,
      description: 'rui’s private report',
      screenshot_url: `/api/bug-reports/${ruiReport.report_id}/screenshot`,
    });
    const ids = list.body.bug_reports.map((r: { report_id: string }) => Number(r.report_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const sofiaList = await http(stack, 'GET', '/api/bug-reports', { token: sofia });
    expect(JSON.stringify(sofiaList.body)).not.toContain('rui’s private report');
    const ownerList = await http(stack, 'GET', '/api/bug-reports', { token: owner });
    expect(JSON.stringify(ownerList.body)).not.toContain('rui’s private report');
  });

  it('lists everyone’s reports to an Admin, at most 50', async () => {
    await stack.dataSource.query(
      `INSERT INTO math_bug_reports (member_id, key_id, description)
       SELECT member_id, key_id, 'filler ' || n FROM math_bug_reports, generate_series(1, 60) n
        WHERE id = (SELECT min(id) FROM math_bug_reports)`,
    );
    const list = await http(stack, 'GET', '/api/bug-reports', { token: admin });
    expect(list.body.bug_reports).toHaveLength(50);
    const submitters = new Set(
      (await http(stack, 'GET', '/api/bug-reports', { token: admin })).body.bug_reports.map(
        (r: { submitter_id: string }) => r.submitter_id,
      ),
    );
    expect(submitters.size).toBeGreaterThanOrEqual(1);
  });

  it('serves the verified screenshot to its submitter and to an Admin, and 404 to anyone else', async () => {
    const path = `/api/bug-reports/${ruiReport.report_id}/screenshot`;
    for (const token of [rui, admin]) {
      const res = await rawRequest(stack, 'GET', path, { token });
      expect(res.status).toBe(200);
      expect(res.body.equals(png)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-disposition']).toContain(`bug-report-${ruiReport.report_id}.png`);
    }
    for (const token of [sofia, owner])
      expect((await rawRequest(stack, 'GET', path, { token })).status).toBe(404);
    const withoutPicture = (await postBugReport(stack, rui, { description: 'no picture' })).body;
    expect(
      (
        await rawRequest(stack, 'GET', `/api/bug-reports/${withoutPicture.report_id}/screenshot`, {
          token: rui,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses and audits a screenshot altered in S3 (once the cached copy is due for its recheck)', async () => {
    const key = `uploads/sha256/${ruiReport.picture.sha256.slice(0, 2)}/${ruiReport.picture.sha256}`;
    const put = (body: Buffer) =>
      stack.s3.send(new PutObjectCommand({ Bucket: stack.config.s3.bucket, Key: key, Body: body }));
    await put(pictures.png(2048));
    // The test above downloaded this picture, so the API holds a verified copy until its recheck window passes.
    await pastRecheckWindow();
    try {
      const res = await rawRequest(stack, 'GET', `/api/bug-reports/${ruiReport.report_id}/screenshot`, {
        token: rui,
      });
      expect(res.status).toBe(502);
      const [audit] = await stack.dataSource.query(
        `SELECT kind, subject_type FROM storage_audit WHERE subject_id = $1`,
        [ruiReport.report_id],
      );
      expect(audit).toEqual({ kind: 'object_mismatch', subject_type: 'bug_report_picture' });
    } finally {
      await put(png);
    }
  });

  it('needs files:read for the screenshot', async () => {
    const key = await mintKey(stack, 'math', 'idp|rui', { scopes: ['read'] });
    const res = await rawRequest(stack, 'GET', `/api/bug-reports/${ruiReport.report_id}/screenshot`, {
      token: key.token,
    });
    expect(res.status).toBe(403);
  });
});
