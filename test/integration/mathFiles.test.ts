import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { act, holdDownload, objectKeys, rawRequest, sha256, uploadAttachment } from '../helpers/files';
import {
  DEMO_DIR,
  http,
  importBundle,
  memberId,
  mintKey,
  pastRecheckWindow,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

const MiB = 1024 * 1024;
const demoFile = (path: string) => readFile(join(DEMO_DIR, 'math-run', path));

let stack: TestStack;
let admin: string;
let owner: string;
let rui: string;
let sofia: string;
let ruiId: string;
let sofiaId: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  await importBundle(stack);
  [admin, owner, rui, sofia] = await Promise.all(
    ['idp|ada', 'idp|olga', 'idp|rui', 'idp|sofia'].map(
      async (id) => (await mintKey(stack, 'math', id)).token,
    ),
  );
  ruiId = await memberId(stack, 'math', 'idp|rui');
  sofiaId = await memberId(stack, 'math', 'idp|sofia');
  await act(stack, owner, 'demo-q1-a', { action: 'assign', assignee_id: ruiId });
  await act(stack, owner, 'demo-q2-a', { action: 'assign', assignee_id: ruiId });
  await act(stack, owner, 'demo-q2-b', { action: 'assign', assignee_id: sofiaId });
});

afterAll(async () => {
  await stack?.stop();
});

const artifactRow = async (artifactId: string) =>
  (
    await stack.dataSource.query(
      'SELECT object_key, size_bytes::int AS size, sha256 FROM math_artifacts WHERE artifact_id = $1',
      [artifactId],
    )
  )[0] as { object_key: string; size: number; sha256: string };

const putObject = (key: string, body: Buffer) =>
  stack.s3.send(new PutObjectCommand({ Bucket: stack.config.s3.bucket, Key: key, Body: body }));

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const auditRows = (subjectId: string) =>
  stack.dataSource.query(
    `SELECT kind, subject_type, expected_sha256, actual_sha256, actual_size_bytes::int AS actual_size, key_id
       FROM storage_audit WHERE subject_id = $1 ORDER BY id`,
    [subjectId],
  );

describe('GET /api/math/artifacts/{artifact_id}/download', () => {
  const download = (artifactId: string, token: string, headers: Record<string, string> = {}) =>
    rawRequest(stack, 'GET', `/api/math/artifacts/${artifactId}/download`, { token, headers });

  it('serves every STANDARD artifact byte for byte with type, length, ETag and file name', async () => {
    const cases = [
      ['demo-art-q1-report', 'files/reports/q1-report.md', 'text/markdown', 'q1-report.md'],
      ['demo-art-q2-checkpoint', 'files/checkpoints/q2-step10000.gz', 'application/gzip', 'q2-step10000.gz'],
      ['demo-art-inputs', 'files/public/inputs.json', 'application/json', 'inputs.json'],
    ];
    for (const [artifactId, path, type, filename] of cases) {
      const expected = await demoFile(path);
      const res = await download(artifactId, owner);
      expect(res.status).toBe(200);
      expect(res.body.equals(expected)).toBe(true);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['content-length']).toBe(String(expected.length));
      expect(res.headers.etag).toBe(`"${sha256(expected)}"`);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${filename}"; filename*=UTF-8''${filename}`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers HEAD with the headers only, and frees its transfer slot', async () => {
    const res = await rawRequest(stack, 'HEAD', '/api/math/artifacts/demo-art-tasks/download', {
      token: owner,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String((await demoFile('files/public/tasks.json')).length));
    expect(res.body.length).toBe(0);
    await waitFor(
      async () =>
        Number((await stack.dataSource.query('SELECT count(*) FROM file_transfer_leases'))[0].count) === 0,
    );
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { sha256: digest } = await artifactRow('demo-art-q1-report');
    const res = await download('demo-art-q1-report', owner, { 'if-none-match': `"${digest}"` });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });

  it('never serves PRIVATE or PROVENANCE artifacts, not even to an Admin', async () => {
    for (const artifactId of ['demo-art-grader', 'demo-art-provenance']) {
      const res = await download(artifactId, admin);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('is 404 for an unknown artifact, 401 without a key, 403 without files:read', async () => {
    expect((await download('no-such-artifact', owner)).status).toBe(404);
    expect((await rawRequest(stack, 'GET', '/api/math/artifacts/demo-art-inputs/download')).status).toBe(401);
    const readOnly = await mintKey(stack, 'math', 'idp|olga', { scopes: ['read', 'paths:read'] });
    const res = await download('demo-art-inputs', readOnly.token);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['files:read'] });
  });

  it('lets a Reviewer download only the reports of tasks assigned to them', async () => {
    const res = await download('demo-art-q1-report', rui);
    expect(res.status).toBe(200);
    expect(res.body.equals(await demoFile('files/reports/q1-report.md'))).toBe(true);
    expect((await download('demo-art-q1-report', sofia)).status).toBe(404);
    expect((await download('demo-art-inputs', rui)).status).toBe(404);
    expect((await download('demo-art-q2-checkpoint', rui)).status).toBe(404);
  });

  it('refuses a shared report to a Reviewer assigned to one of the two tasks sharing it, and serves it once they have both', async () => {
    const refused = await download('demo-art-q2-report', rui);
    expect(refused.status).toBe(403);
    expect(refused.json.detail).toMatch(/every task that shares it/);
    expect((await download('demo-art-q2-report', sofia)).status).toBe(403);

    await act(stack, owner, 'demo-q2-b', { action: 'assign', assignee_id: ruiId });
    try {
      const allowed = await download('demo-art-q2-report', rui);
      expect(allowed.status).toBe(200);
      expect(allowed.body.equals(await demoFile('files/reports/q2-report.md'))).toBe(true);
      expect((await download('demo-art-q2-report', sofia)).status).toBe(404);
    } finally {
      await act(stack, owner, 'demo-q2-b', { action: 'assign', assignee_id: sofiaId });
    }
  });

  it('refuses and audits an object altered in S3 behind the service’s back (same size, other bytes)', async () => {
    const row = await artifactRow('demo-art-q1-report');
    const original = await demoFile('files/reports/q1-report.md');
    const altered = Buffer.from(original);
    altered[10] ^= 0xff;
    await putObject(row.object_key, altered);
    await pastRecheckWindow();
    try {
      const res = await download('demo-art-q1-report', owner);
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json).toMatchObject({ code: 'stored_object_mismatch', status: 502 });
      expect(res.body.includes(altered.subarray(0, 20))).toBe(false);
      const audits = await auditRows('demo-art-q1-report');
      expect(audits.at(-1)).toMatchObject({
        kind: 'object_mismatch',
        subject_type: 'artifact',
        expected_sha256: row.sha256,
        actual_sha256: sha256(altered),
        actual_size: original.length,
      });
      expect(res.json.storage_audit_id).toEqual(expect.any(String));
    } finally {
      await putObject(row.object_key, original);
    }
    expect((await download('demo-art-q1-report', owner)).status).toBe(200);
  });

  it('refuses and audits an object replaced by one of another size, without reading past the recorded size', async () => {
    const row = await artifactRow('demo-art-inputs');
    const original = await demoFile('files/public/inputs.json');
    await putObject(row.object_key, Buffer.concat([original, Buffer.from('\n{"extra": true}')]));
    await pastRecheckWindow();
    try {
      const res = await download('demo-art-inputs', owner);
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('stored_object_mismatch');
      expect((await auditRows('demo-art-inputs')).at(-1)).toMatchObject({ kind: 'object_mismatch' });
    } finally {
      await putObject(row.object_key, original);
    }
  });

  it('refuses and audits an object deleted from S3', async () => {
    const row = await artifactRow('demo-art-q2-checkpoint');
    const original = await demoFile('files/checkpoints/q2-step10000.gz');
    await stack.s3.send(new DeleteObjectCommand({ Bucket: stack.config.s3.bucket, Key: row.object_key }));
    await pastRecheckWindow();
    try {
      const res = await download('demo-art-q2-checkpoint', owner);
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('stored_object_missing');
      expect((await auditRows('demo-art-q2-checkpoint')).at(-1)).toMatchObject({
        kind: 'object_missing',
        actual_sha256: null,
      });
    } finally {
      await putObject(row.object_key, original);
    }
  });
});

describe('GET /api/math/tasks/{task_id}/paths', () => {
  it('gives the source and imported identifiers of the primary report and a working download URL', async () => {
    const res = await http(stack, 'GET', '/api/math/tasks/demo-q1-a/paths', { token: owner });
    expect(res.status).toBe(200);
    const report = await demoFile('files/reports/q1-report.md');
    expect(res.body).toEqual({
      task_id: 'demo-q1-a',
      run_id: 'demo-run-001',
      report_id: 'demo-report-q1',
      source_id: 'reports/q1',
      artifact_id: 'demo-art-q1-report',
      source_path: 'files/reports/q1-report.md',
      filename: 'q1-report.md',
      media_type: 'text/markdown',
      size_bytes: report.length,
      sha256: sha256(report),
      download_url: '/api/math/artifacts/demo-art-q1-report/download',
    });
    const file = await rawRequest(stack, 'GET', res.body.download_url, { token: rui });
    expect(file.body.equals(report)).toBe(true);
  });

  it('is 404 for a task without a report mapping', async () => {
    const res = await http(stack, 'GET', '/api/math/tasks/demo-q3-a/paths', { token: owner });
    expect(res.status).toBe(404);
  });

  it('applies the shared-report rule to Reviewers and hides unassigned tasks', async () => {
    expect((await http(stack, 'GET', '/api/math/tasks/demo-q1-a/paths', { token: rui })).status).toBe(200);
    expect((await http(stack, 'GET', '/api/math/tasks/demo-q2-a/paths', { token: rui })).status).toBe(403);
    expect((await http(stack, 'GET', '/api/math/tasks/demo-q1-a/paths', { token: sofia })).status).toBe(404);
  });

  it('needs paths:read', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga', { scopes: ['read', 'files:read'] });
    const res = await http(stack, 'GET', '/api/math/tasks/demo-q1-a/paths', { token: key.token });
    expect(res.status).toBe(403);
  });
});

describe('GET /api/math/runs/{run_id}/paths', () => {
  it('lists the run’s STANDARD artifacts with their reports, never PRIVATE or PROVENANCE ones', async () => {
    const res = await http(stack, 'GET', '/api/math/runs/demo-run-001/paths', { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.paths.map((p: { artifact_id: string }) => p.artifact_id).sort()).toEqual([
      'demo-art-inputs',
      'demo-art-q1-report',
      'demo-art-q2-checkpoint',
      'demo-art-q2-report',
      'demo-art-tasks',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|PROVENANCE|grader|provenance/);
    const q2 = res.body.paths.find((p: { artifact_id: string }) => p.artifact_id === 'demo-art-q2-report');
    expect(q2).toMatchObject({
      kind: 'REPORT',
      class: 'STANDARD',
      reports: [{ report_id: 'demo-report-q2', source_id: 'reports/q2' }],
      download_url: '/api/math/artifacts/demo-art-q2-report/download',
    });
  });

  it('is 404 for an unknown run and for a run whose artifacts are all PRIVATE or PROVENANCE', async () => {
    expect((await http(stack, 'GET', '/api/math/runs/no-such-run/paths', { token: owner })).status).toBe(404);
    await stack.dataSource.query(
      `INSERT INTO math_runs (run_id, title, bundle_sha256) VALUES ('private-run', 'Private only', 'x');
       INSERT INTO math_artifacts (artifact_id, run_id, kind, class, source_path, filename, media_type, object_key, size_bytes, sha256)
       SELECT 'private-run-notes', 'private-run', kind, class, source_path, filename, media_type, object_key, size_bytes, sha256
         FROM math_artifacts WHERE artifact_id = 'demo-art-grader'`,
    );
    const res = await http(stack, 'GET', '/api/math/runs/private-run/paths', { token: admin });
    expect(res.status).toBe(404);
  });

  it('is for operators only', async () => {
    const res = await http(stack, 'GET', '/api/math/runs/demo-run-001/paths', { token: rui });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_role');
  });
});

describe('GET /api/math/workflow/tasks/{task_id}/evidence', () => {
  it('projects the task’s own rubric, review and quality gate, never a sibling’s', async () => {
    const a = await http(stack, 'GET', '/api/math/workflow/tasks/demo-q2-a/evidence', { token: owner });
    const b = await http(stack, 'GET', '/api/math/workflow/tasks/demo-q2-b/evidence', { token: owner });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      task_id: 'demo-q2-a',
      report_id: 'demo-report-q2',
      rubric: { total: 1 },
      review: { verdict: 'correct' },
      quality_gate: { status: 'PASS' },
    });
    expect(b.body).toMatchObject({ task_id: 'demo-q2-b', review: null, quality_gate: { status: 'WARN' } });
    expect(JSON.stringify(a.body)).not.toContain('independent derivation');
  });

  it('answers nulls for a task without a mapping or evidence', async () => {
    const res = await http(stack, 'GET', '/api/math/workflow/tasks/demo-q3-a/evidence', { token: owner });
    expect(res.body).toEqual({
      task_id: 'demo-q3-a',
      report_id: null,
      rubric: null,
      review: null,
      quality_gate: null,
      imported_at: null,
    });
  });

  it('follows the Reviewer rule and needs files:read', async () => {
    expect(
      (await http(stack, 'GET', '/api/math/workflow/tasks/demo-q2-a/evidence', { token: rui })).status,
    ).toBe(200);
    expect(
      (await http(stack, 'GET', '/api/math/workflow/tasks/demo-q2-a/evidence', { token: sofia })).status,
    ).toBe(404);
    const key = await mintKey(stack, 'math', 'idp|olga', { scopes: ['read'] });
    const res = await http(stack, 'GET', '/api/math/workflow/tasks/demo-q2-a/evidence', { token: key.token });
    expect(res.status).toBe(403);
  });
});

describe('attachments of a task', () => {
  const base = '/api/math/tasks/demo-q1-a/attachments';
  const attachmentCount = async () =>
    Number((await stack.dataSource.query('SELECT count(*) FROM math_attachments'))[0].count);

  it('round-trips raw bytes: receipt, list, metadata and a verified download with the file name', async () => {
    const bytes = Buffer.concat([Buffer.from('résumé\u0000'), Buffer.alloc(3000, 7)]);
    const up = await uploadAttachment(stack, 'demo-q1-a', rui, bytes, {
      'x-filename': encodeURIComponent('Notes für Prüfung "v2".bin'),
    });
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({
      task_id: 'demo-q1-a',
      filename: 'Notes für Prüfung "v2".bin',
      media_type: 'application/octet-stream',
      size_bytes: bytes.length,
      sha256: sha256(bytes),
      uploader_id: ruiId,
    });
    expect(up.json.attachment_id).toMatch(/^[1-9][0-9]*$/);
    expect(up.headers.location).toBe(`${base}/${up.json.attachment_id}`);

    const list = await http(stack, 'GET', base, { token: owner });
    expect(list.body.attachments[0]).toEqual(up.json);
    const meta = await http(stack, 'GET', `${base}/${up.json.attachment_id}`, { token: rui });
    expect(meta.body).toEqual(up.json);

    const file = await rawRequest(stack, 'GET', up.json.download_url, { token: rui });
    expect(file.status).toBe(200);
    expect(file.body.equals(bytes)).toBe(true);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Notes f_r Pr_fung _v2_.bin"; filename*=UTF-8''Notes%20f%C3%BCr%20Pr%C3%BCfung%20%22v2%22.bin`,
    );
  });

  it('stores and shows a name without bidi and other format characters', async () => {
    const up = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('MZ not a pdf'), {
      // Listed as "invoiceexe.pdf" if the right-to-left override were kept.
      'x-filename': encodeURIComponent('invoice\u202Efdp.exe'),
    });
    expect(up.status).toBe(201);
    expect(up.json.filename).toBe('invoicefdp.exe');
    const [row] = await stack.dataSource.query('SELECT filename FROM math_attachments WHERE id = $1', [
      up.json.attachment_id,
    ]);
    expect(row.filename).toBe('invoicefdp.exe');
    // A name stored with one (before the upload removed them) is shown without it.
    await stack.dataSource.query(`UPDATE math_attachments SET filename = $2 WHERE id = $1`, [
      up.json.attachment_id,
      'report\u2067gpj.exe',
    ]);
    const meta = await http(stack, 'GET', `${base}/${up.json.attachment_id}`, { token: rui });
    expect(meta.body.filename).toBe('reportgpj.exe');
    const file = await rawRequest(stack, 'GET', up.json.download_url, { token: rui });
    expect(file.headers['content-disposition']).toContain(`filename="reportgpj.exe"`);
  });

  it('refuses 0 bytes and 16 MiB + 1 (declared or chunked) and stores nothing', async () => {
    const rows = await attachmentCount();
    const objects = await objectKeys(stack, 'uploads/');
    const empty = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    const declared = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.alloc(16 * MiB + 1, 1));
    expect(declared.status).toBe(413);
    const chunks = [Buffer.alloc(8 * MiB, 2), Buffer.alloc(8 * MiB, 3), Buffer.alloc(1, 4)];
    const chunked = await uploadAttachment(stack, 'demo-q1-a', rui, Readable.from(chunks));
    expect(chunked.status).toBe(413);
    expect(chunked.json.code).toBe('payload_too_large');
    const emptyChunked = await uploadAttachment(stack, 'demo-q1-a', rui, Readable.from([]));
    expect(emptyChunked.status).toBe(400);
    expect(await attachmentCount()).toBe(rows);
    expect(await objectKeys(stack, 'uploads/')).toEqual(objects);
  });

  it('accepts exactly 16 MiB, streamed in chunks, and serves it back byte for byte', async () => {
    const bytes = Buffer.alloc(16 * MiB);
    for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32BE(i, i);
    const chunks = Array.from({ length: 16 }, (_, i) => bytes.subarray(i * MiB, (i + 1) * MiB));
    const up = await uploadAttachment(stack, 'demo-q1-a', owner, Readable.from(chunks));
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({ size_bytes: 16 * MiB, sha256: sha256(bytes), filename: null });
    const file = await rawRequest(stack, 'GET', up.json.download_url, { token: owner });
    expect(file.status).toBe(200);
    expect(file.headers['content-length']).toBe(String(16 * MiB));
    expect(sha256(file.body)).toBe(sha256(bytes));
  });

  it('accepts application/octet-stream only, and checks X-Filename', async () => {
    const rows = await attachmentCount();
    const wrongType = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('x'), {
      'content-type': 'text/plain',
    });
    expect(wrongType.status).toBe(415);
    const badName = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('x'), {
      'x-filename': encodeURIComponent('../etc/passwd'),
    });
    expect(badName.status).toBe(400);
    expect(badName.json.errors[0].path).toBe('headers.x-filename');
    expect(await attachmentCount()).toBe(rows);
  });

  it('lets Reviewers upload only to assigned tasks and needs files:write', async () => {
    expect((await uploadAttachment(stack, 'demo-q2-b', rui, Buffer.from('x'))).status).toBe(404);
    const readOnly = await mintKey(stack, 'math', 'idp|rui', { scopes: ['read', 'files:read', 'write'] });
    const res = await uploadAttachment(stack, 'demo-q1-a', readOnly.token, Buffer.from('x'));
    expect(res.status).toBe(403);
  });

  it('replays an upload retried with the same Idempotency-Key and refuses other bytes under it', async () => {
    const key = { 'idempotency-key': 'attachment-retry-0001' };
    const first = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('same bytes'), key);
    const again = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('same bytes'), key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('other bytes'), key);
    expect(other.status).toBe(409);
  });

  it('removes by hiding: Reviewers only their own uploads while assigned, operators any; the bytes stay', async () => {
    const mine = (await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('rui’s notes'))).json;
    const theirs = (await uploadAttachment(stack, 'demo-q1-a', owner, Buffer.from('owner’s notes'))).json;

    const refused = await http(stack, 'DELETE', `${base}/${theirs.attachment_id}`, { token: rui });
    expect(refused.status).toBe(403);
    const removed = await http(stack, 'DELETE', `${base}/${mine.attachment_id}`, { token: rui });
    expect(removed.status).toBe(204);
    expect((await http(stack, 'GET', `${base}/${mine.attachment_id}`, { token: rui })).status).toBe(404);
    expect((await http(stack, 'DELETE', `${base}/${mine.attachment_id}`, { token: rui })).status).toBe(404);
    const list = await http(stack, 'GET', base, { token: owner });
    expect(list.body.attachments.map((a: { attachment_id: string }) => a.attachment_id)).not.toContain(
      mine.attachment_id,
    );
    expect(await objectKeys(stack, `uploads/sha256/${mine.sha256.slice(0, 2)}/${mine.sha256}`)).toHaveLength(
      1,
    );

    expect((await http(stack, 'DELETE', `${base}/${theirs.attachment_id}`, { token: admin })).status).toBe(
      204,
    );
  });

  it('lets a Reviewer remove their upload only while still assigned to the task', async () => {
    const up = (await uploadAttachment(stack, 'demo-q2-a', rui, Buffer.from('rui on q2-a'))).json;
    await act(stack, owner, 'demo-q2-a', { action: 'assign', assignee_id: sofiaId });
    try {
      const path = `/api/math/tasks/demo-q2-a/attachments/${up.attachment_id}`;
      expect((await http(stack, 'DELETE', path, { token: rui })).status).toBe(404);
      expect((await http(stack, 'DELETE', path, { token: sofia })).status).toBe(403);
      expect((await http(stack, 'GET', path, { token: sofia })).status).toBe(200);
    } finally {
      await act(stack, owner, 'demo-q2-a', { action: 'assign', assignee_id: ruiId });
    }
  });

  it('keeps archived tasks read-only until restored', async () => {
    const up = await uploadAttachment(stack, 'demo-q3-a', owner, Buffer.from('before archiving'));
    expect(up.status).toBe(201);
    await act(stack, owner, 'demo-q3-a', { action: 'archive' });
    try {
      const refused = await uploadAttachment(stack, 'demo-q3-a', owner, Buffer.from('after'));
      expect(refused.status).toBe(409);
      expect(refused.json.code).toBe('task_archived');
      const del = await http(
        stack,
        'DELETE',
        `/api/math/tasks/demo-q3-a/attachments/${up.json.attachment_id}`,
        {
          token: owner,
        },
      );
      expect(del.status).toBe(409);
      const list = await http(stack, 'GET', '/api/math/tasks/demo-q3-a/attachments', { token: owner });
      expect(list.body.attachments).toHaveLength(1);
    } finally {
      await act(stack, owner, 'demo-q3-a', { action: 'restore' });
    }
  });

  it('allows at most 200 active attachments per task', async () => {
    const sample = (await uploadAttachment(stack, 'demo-q3-a', owner, Buffer.from('filler'))).json;
    const active = async () =>
      Number(
        (
          await stack.dataSource.query(
            `SELECT count(*) FROM math_attachments WHERE task_id = 'demo-q3-a' AND deleted_at IS NULL`,
          )
        )[0].count,
      );
    await stack.dataSource.query(
      `INSERT INTO math_attachments (task_id, uploader_id, uploader_key_id, media_type, object_key, size_bytes, sha256)
       SELECT task_id, uploader_id, uploader_key_id, media_type, object_key, size_bytes, sha256
         FROM math_attachments, generate_series(1, $2) WHERE id = $1`,
      [sample.attachment_id, 200 - (await active())],
    );
    expect(await active()).toBe(200);
    const refused = await uploadAttachment(stack, 'demo-q3-a', owner, Buffer.from('one too many'));
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('attachment_limit_reached');
    const list = await http(stack, 'GET', '/api/math/tasks/demo-q3-a/attachments', { token: owner });
    expect(list.body.attachments).toHaveLength(200);
    expect(Number(list.body.attachments[0].attachment_id)).toBeGreaterThan(
      Number(list.body.attachments[199].attachment_id),
    );
    await http(stack, 'DELETE', `/api/math/tasks/demo-q3-a/attachments/${sample.attachment_id}`, {
      token: owner,
    });
    expect((await uploadAttachment(stack, 'demo-q3-a', owner, Buffer.from('fits again'))).status).toBe(201);
  });

  it('refuses and audits an attachment whose object was altered in S3', async () => {
    const bytes = Buffer.from('attachment to be tampered with');
    const up = (await uploadAttachment(stack, 'demo-q1-a', rui, bytes)).json;
    const key = `uploads/sha256/${up.sha256.slice(0, 2)}/${up.sha256}`;
    await putObject(key, Buffer.from('attachment to be tampered WITH'));
    try {
      const res = await rawRequest(stack, 'GET', up.download_url, { token: rui });
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('stored_object_mismatch');
      expect((await auditRows(up.attachment_id)).at(-1)).toMatchObject({ subject_type: 'attachment' });
    } finally {
      await putObject(key, bytes);
    }
  });

  it('rechecks task access before a download', async () => {
    const up = (await uploadAttachment(stack, 'demo-q1-a', rui, Buffer.from('for rui only'))).json;
    expect((await rawRequest(stack, 'GET', up.download_url, { token: sofia })).status).toBe(404);
    expect((await rawRequest(stack, 'GET', up.download_url, { token: rui })).status).toBe(200);
  });
});

describe('the cache of verified downloads (storage/verifiedCache.ts)', () => {
  /** S3 requests the API makes while `run` runs, by command name. */
  async function s3Calls(run: () => Promise<void>): Promise<string[]> {
    const calls: string[] = [];
    const s3 = stack.server.deps.s3;
    const send = s3.send.bind(s3);
    const spy = jest.spyOn(s3, 'send').mockImplementation(((
      command: { constructor: { name: string } },
      ...rest: unknown[]
    ) => {
      calls.push(command.constructor.name);
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as never);
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return calls;
  }

  it.each([
    ['in memory', 1000],
    ['through a temporary file', 3 * MiB],
  ])(
    'serves later downloads from disk, byte for byte (no S3 request within the recheck window, a HEAD after it), verified %s',
    async (_how, size) => {
      const bytes = Buffer.alloc(size, size % 251);
      bytes.write(`cache-${size}-${Date.now()}`);
      const up = (await uploadAttachment(stack, 'demo-q1-a', owner, bytes)).json;
      const download = async () => {
        const res = await rawRequest(stack, 'GET', up.download_url, { token: owner });
        expect(res.status).toBe(200);
        expect(res.body.equals(bytes)).toBe(true);
        expect(res.headers['content-length']).toBe(String(size));
      };
      expect(await s3Calls(download)).toEqual(['GetObjectCommand']);
      await waitFor(async () => stack.server.deps.verifiedCache?.lookup(up.sha256, size) !== undefined);
      expect(await s3Calls(download)).toEqual([]);
      await pastRecheckWindow();
      expect(await s3Calls(download)).toEqual(['HeadObjectCommand']);
      expect(await s3Calls(download)).toEqual([]);
    },
  );

  it('never serves bytes S3 altered: the verified copy until the recheck, then refused and audited, then served again when restored', async () => {
    const bytes = Buffer.from('cached attachment, then tampered with in S3');
    const up = (await uploadAttachment(stack, 'demo-q1-a', owner, bytes)).json;
    const key = `uploads/sha256/${up.sha256.slice(0, 2)}/${up.sha256}`;
    expect((await rawRequest(stack, 'GET', up.download_url, { token: owner })).status).toBe(200);
    await waitFor(async () => stack.server.deps.verifiedCache?.lookup(up.sha256, bytes.length) !== undefined);
    const altered = Buffer.from('CACHED attachment, then tampered with in S3');
    await putObject(key, altered);
    try {
      const withinWindow = await rawRequest(stack, 'GET', up.download_url, { token: owner });
      expect(withinWindow.status).toBe(200);
      expect(withinWindow.body.equals(bytes)).toBe(true);
      await pastRecheckWindow();
      const res = await rawRequest(stack, 'GET', up.download_url, { token: owner });
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('stored_object_mismatch');
      expect(res.body.includes(altered.subarray(0, 20))).toBe(false);
      expect((await auditRows(up.attachment_id)).at(-1)).toMatchObject({ kind: 'object_mismatch' });
      expect(stack.server.deps.verifiedCache?.lookup(up.sha256, bytes.length)).toBeUndefined();
    } finally {
      await putObject(key, bytes);
    }
    const restored = await rawRequest(stack, 'GET', up.download_url, { token: owner });
    expect(restored.status).toBe(200);
    expect(restored.body.equals(bytes)).toBe(true);
  });
});

describe('per-key file concurrency', () => {
  const liveLeases = async () =>
    Number((await stack.dataSource.query('SELECT count(*) FROM file_transfer_leases'))[0].count);

  it('answers 429 with Retry-After beyond 4 transfers in flight for one key, and frees the slot when one ends', async () => {
    const up = (await uploadAttachment(stack, 'demo-q1-a', owner, Buffer.alloc(16 * MiB, 9))).json;
    const key = await mintKey(stack, 'math', 'idp|olga');
    const held = await Promise.all(
      Array.from({ length: 4 }, () => holdDownload(stack, up.download_url, key.token)),
    );
    try {
      expect(held.map((h) => h.status)).toEqual([200, 200, 200, 200]);
      const refused = await rawRequest(stack, 'GET', up.download_url, { token: key.token });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json.code).toBe('rate_limited');
      const upload = await uploadAttachment(stack, 'demo-q1-a', key.token, Buffer.from('x'));
      expect(upload.status).toBe(429);
      const otherKey = await rawRequest(stack, 'GET', up.download_url, { token: owner });
      expect(otherKey.status).toBe(200);

      held.pop()!.close();
      await waitFor(async () => (await liveLeases()) === 3);
      const freed = await rawRequest(stack, 'GET', '/api/math/artifacts/demo-art-inputs/download', {
        token: key.token,
      });
      expect(freed.status).toBe(200);
    } finally {
      for (const h of held) h.close();
      await waitFor(async () => (await liveLeases()) === 0);
    }
  });
});
