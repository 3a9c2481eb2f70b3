import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { WebhookWakeups } from '../../activities/webhookWakeups';
import { createActivities } from '../../activities';
import type { MathBundlePlan } from '../../activities/mathImport';
import { importProgressQuery } from '../../workflows/importCommon';
import { importGenomicsBundleWorkflowId } from '../../workflows/importGenomicsBundle/messages';
import { type ImportMathRunResult, importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import { objectKeys, rawRequest, uploadAttachment } from '../helpers/files';
import { g, topicPath, writeGenomicsBundle } from '../helpers/genomics';
import {
  editMathBundle,
  generated,
  kill,
  readJsonl,
  readGenomicsManifest,
  readMathManifest,
  removeGenerated,
  runOps,
  spawnWorker,
  tableSnapshot,
  waitFor,
} from '../helpers/imports';
import { act } from '../helpers/math';
import {
  http,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

// The ops CLI runs as a child process (a few seconds to start under tsx), and bundles of hundreds of tasks.
jest.setTimeout(180_000);

let stack: TestStack;
let owner: string;
let rui: string;
let ruiId: string;
let genomicsOwner: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  owner = (await mintKey(stack, 'math', 'idp|olga')).token;
  rui = (await mintKey(stack, 'math', 'idp|rui')).token;
  ruiId = await memberId(stack, 'math', 'idp|rui');
  genomicsOwner = (await mintKey(stack, 'genomics', 'idp|olga')).token;
});

afterAll(async () => {
  await stack?.stop();
  await removeGenerated();
});

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const importRuns = async () =>
  (await stack.dataSource.query('SELECT count(*)::int AS count FROM import_runs'))[0].count as number;
const opsJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!);

/** The math bundle that the round trip imports and the re-import tests change. */
let mathBundle: Awaited<ReturnType<typeof generated>>;

describe('ops import of a broken bundle', () => {
  it('lists every problem (file, JSON path, message) as JSON, exits 1 and writes nothing', async () => {
    const bundle = await generated('math', 40, { seed: 3 });
    await editMathBundle(bundle.dir, {
      manifest: (m) => {
        delete m.run.title;
        m.clients.push({ name: m.clients[0].name.toUpperCase() });
      },
    });
    const artifacts = await readJsonl(join(bundle.dir, 'artifacts.jsonl'));
    await editMathBundle(bundle.dir, {
      artifacts: (a, i) => {
        if (i === 0) a.kind = 'SLIDES';
        if (i === 1) a.path = '../outside.md';
        if (i === 2) a.path = 'files/missing.md';
        if (i === 3) a.sha256 = '0'.repeat(64);
        if (i === 4) a.size_bytes = 1;
        if (i === 6) a.artifact_id = artifacts[5].artifact_id;
        return a;
      },
    });
    const tasksFile = join(bundle.dir, 'tasks.jsonl');
    const tasks = await readJsonl(tasksFile);
    tasks[0].topic_id = 'no-such-topic';
    tasks[1].report_id = 'no-such-report';
    tasks[2].task_id = tasks[0].task_id;
    tasks[3].client = 'Nobody Research';
    delete tasks[5].problem;
    const lines = tasks.map((t) => JSON.stringify(t));
    lines[4] = '{"task_id": ';
    await writeFile(tasksFile, `${lines.join('\n')}\n`);
    await editMathBundle(bundle.dir, {
      manifest: (m) => {
        delete m.tasks_file.sha256;
      },
    });
    const before = await tableSnapshot(stack);

    const ops = await runOps(stack, ['import', bundle.dir, '--json']);
    expect(ops.code).toBe(1);
    const output = opsJson(ops.stdout);
    expect(output.ok).toBe(false);
    const problems: string[] = output.error.problems.map(
      (p: { file: string; line?: number; path: string; message: string }) =>
        `${p.file}${p.line ? `:${p.line}` : ''} ${p.path}: ${p.message}`,
    );
    const m = JSON.parse(await readFile(join(bundle.dir, 'manifest.json'), 'utf8'));
    expect(problems).toEqual(
      expect.arrayContaining([
        'manifest.json $.run.title: is required',
        'artifacts.jsonl:1 $.kind: must be one of REPORT, CHECKPOINT, PUBLIC_INPUT, PUBLIC_TASKS, EVIDENCE',
        'artifacts.jsonl:2 $.path: must be a relative path inside the bundle',
        'artifacts.jsonl:3 $.path: files/missing.md: file not found',
        expect.stringMatching(
          /^artifacts\.jsonl:4 \$\.sha256: .* has SHA-256 [0-9a-f]{64}, its record says 0{64}$/,
        ),
        expect.stringMatching(/^artifacts\.jsonl:5 \$\.size_bytes: .* has \d+ bytes, its record says 1$/),
        `artifacts.jsonl:7 $.artifact_id: duplicate artifact_id "${artifacts[5].artifact_id}" (first at artifacts.jsonl:6)`,
        expect.stringMatching(/^manifest\.json \$\.clients\.12\.name: duplicate client name/),
        'tasks.jsonl:1 $.topic_id: unknown topic "no-such-topic"',
        'tasks.jsonl:2 $.report_id: unknown report "no-such-report"',
        `tasks.jsonl:3 $.task_id: duplicate task_id "${tasks[0].task_id}" (first at tasks.jsonl:1)`,
        'tasks.jsonl:4 $.client: unknown client "Nobody Research" (not in clients)',
        expect.stringMatching(/^tasks\.jsonl:5 \$: is not valid JSON/),
        'tasks.jsonl:6 $.problem: is required',
      ]),
    );

    expect(await tableSnapshot(stack)).toEqual(before);
    expect(await importRuns()).toBe(0);
    expect(await objectKeys(stack)).toEqual([]);
    await expect(
      stack.temporal.workflow.getHandle(importMathRunWorkflowId(m.run.run_id)).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);

    // Started without ops, the import workflow's planning refuses the same problems before writing anything.
    const direct = importBundle(stack, bundle.dir);
    await expect(direct).rejects.toBeInstanceOf(WorkflowFailedError);
    const failure = (await direct.catch((e: WorkflowFailedError) => e)) as WorkflowFailedError;
    const cause = failure.cause?.cause as { type?: string; details?: Array<{ total: number }> };
    expect(cause.type).toBe('invalid_bundle');
    expect(cause.details?.[0].total).toBe(output.error.problems.length);
    expect(await tableSnapshot(stack)).toEqual(before);
    expect(await importRuns()).toBe(0);
    expect(await objectKeys(stack)).toEqual([]);
  });

  it('lists a genomics bundle’s problems, references the workspace lacks included, in plain text', async () => {
    const dir = await writeGenomicsBundle(
      {
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'broken-1', batch: 'batch-300' },
        topics: [{ topic: 1, title: 'x', client_ids: ['nobody'] }],
        measurements: [
          {
            measurement_id: 'm',
            topic: 1,
            model_id: 'x',
            scope: 'merged',
            measured_at: '2026-01-01T00:00:00Z',
          },
        ],
        reports: [
          { report_id: 'r', topic: 9, title: 't', file: { path: 'r.md', media_type: 'text/markdown' } },
        ],
      },
      {},
    );
    const before = await tableSnapshot(stack);
    const ops = await runOps(stack, ['import', dir]);
    expect(ops.code).toBe(1);
    expect(ops.stderr).toContain('refused: 4 problems');
    expect(ops.stderr).toContain(
      'manifest.json $.measurements.0.scope: must be one of original_report, public_package_rerun',
    );
    expect(ops.stderr).toContain('manifest.json $.topics.0.client_ids.0: unknown client "nobody"');
    expect(ops.stderr).toContain('manifest.json $.reports.0.file.path: r.md: file not found');
    expect(ops.stderr).toContain(
      'manifest.json $.reports.0.topic: topic batch-300:9 is neither in topics nor in the workspace',
    );
    expect(await tableSnapshot(stack)).toEqual(before);
    await expect(
      stack.temporal.workflow.getHandle(importGenomicsBundleWorkflowId('batch-300', 'broken-1')).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });
});

describe('a math bundle with every kind of record', () => {
  let tasks: any[];
  let evidence: any[];
  let manifest: any;

  beforeAll(async () => {
    mathBundle = await generated('math', 400, { seed: 7 });
    tasks = await readJsonl(join(mathBundle.dir, 'tasks.jsonl'));
    evidence = await readJsonl(join(mathBundle.dir, 'evidence.jsonl'));
    manifest = await readMathManifest(mathBundle.dir);
  });

  it('imports through ops with progress on stderr and a summary', async () => {
    const ops = await runOps(stack, ['import', mathBundle.dir]);
    expect(ops.stderr).toContain('done');
    expect(ops.code).toBe(0);
    expect(ops.stdout).toContain(
      `Imported run ${mathBundle.id}: 400 tasks, ${manifest.artifacts.length} artifacts`,
    );
    const [run] = await stack.dataSource.query(
      `SELECT status, files_total, finished_at IS NOT NULL AS finished FROM import_runs WHERE subject_id = $1`,
      [mathBundle.id],
    );
    expect(run).toEqual({ status: 'SUCCEEDED', files_total: manifest.artifacts.length, finished: true });
    expect(
      (await stack.dataSource.query('SELECT count(*)::int AS n FROM import_artifact_receipts'))[0].n,
    ).toBe(0);
  });

  it('reads back the run, its topics, reports and tasks (null mappings included) through the API', async () => {
    const run = await http(stack, 'GET', `/api/math/runs/${mathBundle.id}?page_size=100`, { token: owner });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      run_id: mathBundle.id,
      title: manifest.run.title,
      report_count: manifest.reports.length,
      tasks: { total: 400 },
    });
    expect(run.body.topics.map((t: any) => t.topic_id).sort()).toEqual(
      manifest.topics.map((t: any) => t.topic_id).sort(),
    );
    const reportTasks = new Map<string, number>();
    for (const t of tasks)
      if (t.report_id) reportTasks.set(t.report_id, (reportTasks.get(t.report_id) ?? 0) + 1);
    const shared = [...reportTasks].find(([, n]) => n > 1)!;
    const listed = run.body.reports.items.find((r: any) => r.report_id === shared[0]);
    if (listed) expect(listed.mapped_tasks).toBe(shared[1]);

    const nullMapped = tasks.find((t) => t.report_id === null);
    const mapped = tasks.find((t) => t.report_id !== null);
    for (const t of [nullMapped, mapped]) {
      const res = await http(stack, 'GET', `/api/math/tasks/${t.task_id}`, { token: owner });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        task_id: t.task_id,
        run_id: mathBundle.id,
        topic_id: t.topic_id,
        question_id: t.question_id,
        title: t.title,
        problem: t.problem,
        review_state: 'UNASSIGNED',
        version: 0,
      });
      expect(res.body.report?.report_id ?? null).toBe(t.report_id);
    }
  });

  it('creates the bundle’s clients and links each task to its client when it creates the task', async () => {
    const res = await http(stack, 'GET', '/api/math/clients?page_size=100', { token: owner });
    const byName = new Map(res.body.items.map((c: any) => [c.name, c]));
    expect([...byName.keys()].sort()).toEqual(manifest.clients.map((c: any) => c.name).sort());
    for (const c of manifest.clients) {
      expect((byName.get(c.name) as any).task_count).toBe(tasks.filter((t) => t.client === c.name).length);
    }
    const linked = tasks.find((t) => t.client);
    const task = await http(stack, 'GET', `/api/math/tasks/${linked.task_id}`, { token: owner });
    expect(task.body.client_id).toBe((byName.get(linked.client) as any).id);
    const [{ created }] = await stack.dataSource.query(
      `SELECT count(*)::int AS created FROM math_client_events WHERE kind = 'client_created' AND actor_id IS NULL`,
    );
    expect(created).toBe(manifest.clients.length);
  });

  it('serves each task its own evidence, and none to a mapped task without an entry', async () => {
    const withEvidence = evidence[0];
    const res = await http(stack, 'GET', `/api/math/workflow/tasks/${withEvidence.task_id}/evidence`, {
      token: owner,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      task_id: withEvidence.task_id,
      report_id: withEvidence.report_id,
      rubric: withEvidence.rubric,
      review: withEvidence.review,
      quality_gate: withEvidence.quality_gate,
    });
    const ids = new Set(evidence.map((e) => e.task_id));
    const without = tasks.find((t) => t.report_id && !ids.has(t.task_id));
    const none = await http(stack, 'GET', `/api/math/workflow/tasks/${without.task_id}/evidence`, {
      token: owner,
    });
    expect(none.body).toMatchObject({ rubric: null, review: null, quality_gate: null });
  });

  it('stores artifacts content-addressed with their size and SHA-256; paths list STANDARD ones only', async () => {
    const mapped = tasks.find((t) => t.report_id !== null);
    const report = manifest.reports.find((r: any) => r.report_id === mapped.report_id);
    const artifact = manifest.artifacts.find((a: any) => a.artifact_id === report.artifact_id);
    const bytes = await readFile(join(mathBundle.dir, artifact.path));
    const paths = await http(stack, 'GET', `/api/math/tasks/${mapped.task_id}/paths`, { token: owner });
    expect(paths.status).toBe(200);
    expect(paths.body).toMatchObject({
      report_id: mapped.report_id,
      sha256: sha256(bytes),
      size_bytes: bytes.length,
    });
    const download = await rawRequest(stack, 'GET', `/api/math/artifacts/${artifact.artifact_id}/download`, {
      token: owner,
    });
    expect(download.status).toBe(200);
    expect(download.body.equals(bytes)).toBe(true);

    const runPaths = await http(stack, 'GET', `/api/math/runs/${mathBundle.id}/paths`, { token: owner });
    const standard = manifest.artifacts
      .filter((a: any) => a.class === 'STANDARD')
      .map((a: any) => a.artifact_id);
    expect(runPaths.body.paths.map((p: any) => p.artifact_id).sort()).toEqual(standard.sort());
    expect(manifest.artifacts.some((a: any) => a.class === 'PRIVATE')).toBe(true);
    expect(manifest.artifacts.some((a: any) => a.class === 'PROVENANCE')).toBe(true);

    const digests = new Set<string>();
    for (const a of manifest.artifacts) digests.add(sha256(await readFile(join(mathBundle.dir, a.path))));
    expect(digests.size).toBeLessThan(manifest.artifacts.length); // provenance files share their bytes
    expect(await objectKeys(stack, 'sha256/')).toEqual(
      [...digests].map((d) => `sha256/${d.slice(0, 2)}/${d}`).sort(),
    );
  });
});

describe('a genomics bundle with every kind of record', () => {
  it('imports through ops and reads back topics, measurements in both scopes and paths', async () => {
    // The generator's default layout: every large list is a JSONL file beside the manifest.
    const bundle = await generated('genomics', 60, { seed: 5, batch: 'batch-105' });
    expect(JSON.parse(await readFile(join(bundle.dir, 'manifest.json'), 'utf8'))).toHaveProperty(
      'topics_file',
    );
    const manifest = await readGenomicsManifest(bundle.dir);
    const ops = await runOps(stack, ['import', bundle.dir, '--json']);
    expect(ops.code).toBe(0);
    expect(opsJson(ops.stdout)).toMatchObject({
      workflowId: 'import/genomics/batch-105/synthetic-genomics-s5-n60',
      unchanged: false,
      topics: 60,
      topicsCreated: 60,
      measurements: 120,
    });

    const topic = manifest.topics.find((t: any) => t.client_ids.length > 0 && t.campaign_id);
    const res = await g(stack, 'GET', topicPath(`batch-105:${topic.topic}`), { token: genomicsOwner });
    expect(res.status).toBe(200);
    expect(res.body.topic).toMatchObject({
      uid: `batch-105:${topic.topic}`,
      title: topic.title,
      decision: 'PENDING',
    });
    expect(res.body.topic.markdown).toBe(await readFile(join(bundle.dir, topic.markdown_path), 'utf8'));
    expect(res.body.campaigns.map((c: any) => c.id)).toEqual([topic.campaign_id]);
    expect(res.body.clients).toHaveLength(topic.client_ids.length);

    const measured = manifest.measurements.find((m: any) => m.evidence && m.completed > 0);
    const withheld = manifest.measurements.find((m: any) => !m.evidence && m.reason);
    const noReason = manifest.measurements.find((m: any) => !m.evidence && !m.reason);
    for (const [m, expected] of [
      [
        measured,
        { status: 'MEASURED', scientific_passes: measured.scientific_passes, completed: measured.completed },
      ],
      [
        withheld,
        { status: 'UNAVAILABLE', scientific_passes: null, pass_rate: null, reason: withheld.reason },
      ],
      [noReason, { status: 'UNAVAILABLE', completed: null, reason: 'no evidence' }],
    ]) {
      const list = await g(stack, 'GET', topicPath(`batch-105:${m.topic}`, '/measurements'), {
        token: genomicsOwner,
      });
      expect(list.body.items.find((x: any) => x.scope === m.scope)).toMatchObject(expected);
    }

    const revision = manifest.revisions[0];
    const paths = await g(stack, 'GET', topicPath(`batch-105:${revision.topic}`, '/paths'), {
      token: genomicsOwner,
    });
    const bytes = await readFile(join(bundle.dir, revision.file.path));
    expect(paths.body.revisions).toEqual([
      expect.objectContaining({ source_id: revision.revision_id, sha256: sha256(bytes), size: bytes.length }),
    ]);
    const [{ count }] = await stack.dataSource.query(
      `SELECT count(*)::int AS count FROM genomics_topics WHERE batch = 'batch-105'`,
    );
    expect(count).toBe(60);

    const again = await runOps(stack, ['import', bundle.dir, '--json']);
    expect(opsJson(again.stdout)).toMatchObject({ unchanged: true, bytesUploaded: 0, filesUploaded: 0 });
  });
});

describe('re-importing a math run', () => {
  it('changes nothing when the bundle is unchanged: no upload, no row written', async () => {
    const before = await tableSnapshot(stack);
    const keys = await objectKeys(stack);
    const ops = await runOps(stack, ['import', mathBundle.dir, '--detach', '--json']);
    expect(ops.code).toBe(0);
    const { workflowId } = opsJson(ops.stdout);
    expect(workflowId).toBe(importMathRunWorkflowId(mathBundle.id));
    const result: ImportMathRunResult = await stack.temporal.workflow.getHandle(workflowId).result();
    expect(result).toMatchObject({ unchanged: true, filesUploaded: 0, bytesUploaded: 0, changes: null });
    expect(await tableSnapshot(stack)).toEqual(before);
    expect(await objectKeys(stack)).toEqual(keys);
    const [last] = await stack.dataSource.query(
      `SELECT status FROM import_runs WHERE subject_id = $1 ORDER BY id DESC LIMIT 1`,
      [mathBundle.id],
    );
    expect(last.status).toBe('UNCHANGED');
    const monitor = await http(stack, 'GET', '/api/math/monitor', { token: owner });
    expect(monitor.body.freshness).toMatchObject({
      latest_run_id: mathBundle.id,
      latest_import_status: 'UNCHANGED',
    });
    expect(Date.parse(monitor.body.freshness.latest_import_finished_at)).toBeGreaterThan(
      Date.parse(monitor.body.freshness.latest_run_imported_at),
    );
  });

  it('updates imported data of a changed run and keeps review state, client links, notes and attachments', async () => {
    const tasks = await readJsonl(join(mathBundle.dir, 'tasks.jsonl'));
    const evidence = await readJsonl(join(mathBundle.dir, 'evidence.jsonl'));
    const withEvidence = new Set(evidence.map((e) => e.task_id));
    const reviewed = tasks.find((t) => t.report_id && !t.client && withEvidence.has(t.task_id));
    const otherReport = tasks.find((t) => t.report_id && t.report_id !== reviewed.report_id).report_id;
    const clientTask = tasks.find((t) => t.client && t.task_id !== reviewed.task_id);
    const clients = (await http(stack, 'GET', '/api/math/clients?page_size=100', { token: owner })).body
      .items;
    const otherClient = clients.find((c: any) => c.name !== clientTask.client);

    await act(stack, owner, reviewed.task_id, { action: 'assign', assignee_id: ruiId });
    await act(stack, rui, reviewed.task_id, { action: 'feedback', comment: 'Check the bound in step 2.' });
    await act(stack, owner, reviewed.task_id, { action: 'client', client_id: otherClient.id });
    expect((await uploadAttachment(stack, reviewed.task_id, rui, Buffer.from('reviewer notes'))).status).toBe(
      201,
    );
    const readTask = async (id: string) =>
      (await http(stack, 'GET', `/api/math/tasks/${id}`, { token: owner })).body;
    const eventCount = async (id: string) =>
      (
        await stack.dataSource.query('SELECT count(*)::int AS n FROM math_task_events WHERE task_id = $1', [
          id,
        ])
      )[0].n;
    const before = await readTask(reviewed.task_id);
    const eventsBefore = await eventCount(reviewed.task_id);
    const clientBefore = (await readTask(clientTask.task_id)).client_id;

    const manifest = await readMathManifest(mathBundle.dir);
    const report = manifest.reports.find((r: any) => r.report_id === reviewed.report_id);
    const artifact = manifest.artifacts.find((a: any) => a.artifact_id === report.artifact_id);
    await appendFile(join(mathBundle.dir, artifact.path), '\nAn erratum was added after the run.\n');
    const changedReport = await readFile(join(mathBundle.dir, artifact.path));
    await editMathBundle(mathBundle.dir, {
      tasks: (t) =>
        t.task_id === reviewed.task_id
          ? { ...t, problem: 'The problem text was corrected.', report_id: otherReport }
          : t.task_id === clientTask.task_id
            ? { ...t, client: otherClient.name }
            : t,
      evidence: (e) => (e.task_id === reviewed.task_id ? { ...e, report_id: otherReport } : e),
      artifacts: (a) =>
        a.artifact_id === artifact.artifact_id
          ? { ...a, sha256: sha256(changedReport), size_bytes: changedReport.length }
          : a,
    });

    const result: ImportMathRunResult = await importBundle(stack, mathBundle.dir);
    expect(result).toMatchObject({ unchanged: false, filesUploaded: 1 });
    expect(result.changes?.tasks).toEqual({ inserted: 0, updated: 1 });
    expect(result.changes?.artifacts).toEqual({ inserted: 0, updated: 1 });
    expect(result.changes?.evidence).toEqual({ inserted: 0, updated: 1 });

    const after = await readTask(reviewed.task_id);
    expect(after).toMatchObject({
      problem: 'The problem text was corrected.',
      report: { report_id: otherReport },
    });
    for (const field of [
      'version',
      'review_state',
      'decision',
      'assignee_id',
      'client_id',
      'archived',
      'updated_at',
    ])
      expect([field, after[field]]).toEqual([field, before[field]]);
    expect(after.client_id).toBe(otherClient.id);
    expect(await eventCount(reviewed.task_id)).toBe(eventsBefore);
    expect((await readTask(clientTask.task_id)).client_id).toBe(clientBefore);
    const notes = await http(stack, 'GET', `/api/math/tasks/${reviewed.task_id}/notes`, { token: owner });
    expect(JSON.stringify(notes.body)).toContain('Check the bound in step 2.');
    const attachments = await http(stack, 'GET', `/api/math/tasks/${reviewed.task_id}/attachments`, {
      token: owner,
    });
    expect(attachments.body.attachments).toHaveLength(1);
    const download = await rawRequest(stack, 'GET', `/api/math/artifacts/${artifact.artifact_id}/download`, {
      token: owner,
    });
    expect(download.body.equals(changedReport)).toBe(true);
    const shown = await http(stack, 'GET', `/api/math/workflow/tasks/${reviewed.task_id}/evidence`, {
      token: owner,
    });
    expect(shown.body.report_id).toBe(otherReport);
  });

  it("removes the evidence of a task whose entry left the bundle, and only that task's", async () => {
    const evidence = await readJsonl(join(mathBundle.dir, 'evidence.jsonl'));
    const [dropped, kept] = evidence;
    const evidenceOf = async (taskId: string) =>
      (await http(stack, 'GET', `/api/math/workflow/tasks/${taskId}/evidence`, { token: owner })).body;
    expect((await evidenceOf(dropped.task_id)).rubric).toEqual(dropped.rubric);

    await editMathBundle(mathBundle.dir, {
      evidence: (e) => (e.task_id === dropped.task_id ? null : e),
    });
    const result: ImportMathRunResult = await importBundle(stack, mathBundle.dir);

    expect(result.changes?.evidenceRemoved).toBe(1);
    expect(result.changes?.evidence).toEqual({ inserted: 0, updated: 0 });
    expect(await evidenceOf(dropped.task_id)).toMatchObject({
      rubric: null,
      review: null,
      quality_gate: null,
    });
    expect((await evidenceOf(kept.task_id)).rubric).toEqual(kept.rubric);
  });
});

describe('a file that changes after the import was planned', () => {
  it('fails the import with an error naming the file, recorded on the import', async () => {
    const bundle = await generated('math', 20, { seed: 13 });
    const activities = createActivities({
      dataSource: stack.dataSource,
      s3: stack.s3,
      bucket: stack.config.s3.bucket,
      // Never called here; the listener connects only when a delivery waits.
      webhooks: {
        sealingKey: null,
        policy: { allowPrivate: false },
        wakeups: new WebhookWakeups(stack.config.databaseUrl),
      },
    });
    const env = new MockActivityEnvironment({
      workflowExecution: { workflowId: importMathRunWorkflowId(bundle.id), runId: 'unit-run-1' },
    });
    const plan: MathBundlePlan = await env.run(activities.planMathImport, bundle.dir);
    expect(plan).toMatchObject({ unchanged: false, filesTotal: bundle.counts.artifacts });
    const manifest = await readMathManifest(bundle.dir);
    await appendFile(join(bundle.dir, manifest.artifacts[0].path), 'changed after planning\n');

    const upload = env.run(activities.storeImportFiles, {
      importId: plan.importId,
      from: 0,
      to: plan.filesTotal,
    });
    await expect(upload).rejects.toMatchObject({
      type: 'checksum_mismatch',
      nonRetryable: true,
      message: expect.stringContaining(`${manifest.artifacts[0].path} changed during the import`),
    });
    await env.run(activities.failImport, { importId: plan.importId, error: 'checksum_mismatch' });
    const [row] = await stack.dataSource.query('SELECT status, error FROM import_runs WHERE id = $1', [
      plan.importId,
    ]);
    expect(row).toEqual({ status: 'FAILED', error: 'checksum_mismatch' });
    const [{ staged }] = await stack.dataSource.query(
      'SELECT count(*)::int AS staged FROM import_artifact_receipts WHERE import_run_id = $1',
      [plan.importId],
    );
    expect(staged).toBe(0);
    const [{ runs }] = await stack.dataSource.query(
      'SELECT count(*)::int AS runs FROM math_runs WHERE run_id = $1',
      [bundle.id],
    );
    expect(runs).toBe(0);
  });
});

describe('an import whose worker is killed mid-upload', () => {
  it('finishes on a restarted worker with exact counts and no duplicate rows or objects', async () => {
    const bundle = await generated('math', 3000, { seed: 11, artifactBytes: 8192 });
    const manifest = await readMathManifest(bundle.dir);
    // The stack's own worker polls another queue: only the child process runs this import.
    const queue = `${stack.config.temporal.taskQueue}-child`;
    const keysBefore = await objectKeys(stack, 'sha256/');
    let worker = spawnWorker(stack, queue);
    try {
      const handle = await stack.temporal.workflow.start('importMathRunWorkflow', {
        workflowId: importMathRunWorkflowId(bundle.id),
        taskQueue: queue,
        args: [{ bundleDir: bundle.dir }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      const progress = await waitFor(
        'some but not all files stored',
        async () => {
          const p = await handle.query(importProgressQuery);
          return p.filesStored > 0 && p.filesStored < p.filesTotal ? p : null;
        },
        240_000,
        50,
      );
      await kill(worker);
      expect(progress.filesTotal).toBe(manifest.artifacts.length);
      const [{ stored }] = await stack.dataSource.query(
        'SELECT count(*)::int AS stored FROM import_artifact_receipts WHERE stored_at IS NOT NULL',
      );
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(manifest.artifacts.length);

      worker = spawnWorker(stack, queue);
      const result: ImportMathRunResult = await handle.result();
      expect(result).toMatchObject({ unchanged: false, tasks: 3000, filesStored: manifest.artifacts.length });
    } finally {
      await kill(worker, 'SIGTERM');
    }
    const count = async (sql: string) => (await stack.dataSource.query(sql, [bundle.id]))[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM math_tasks WHERE run_id = $1')).toBe(3000);
    expect(await count('SELECT count(*)::int AS n FROM math_artifacts WHERE run_id = $1')).toBe(
      manifest.artifacts.length,
    );
    expect(await count('SELECT count(*)::int AS n FROM math_reports WHERE run_id = $1')).toBe(
      manifest.reports.length,
    );
    expect(
      await count(
        `SELECT count(*)::int AS n FROM import_runs WHERE subject_id = $1 AND status = 'SUCCEEDED'`,
      ),
    ).toBe(1);
    expect(
      await count('SELECT count(*)::int AS n FROM import_artifact_receipts WHERE $1::text IS NOT NULL'),
    ).toBe(0);
    // Content addressing: every object is its bytes' SHA-256, so an object stored twice would be the same key;
    // the import leaves exactly the objects its artifacts reference next to those that were there before.
    const referenced: Array<{ object_key: string }> = await stack.dataSource.query(
      'SELECT DISTINCT object_key FROM math_artifacts WHERE run_id = $1',
      [bundle.id],
    );
    expect(await objectKeys(stack, 'sha256/')).toEqual(
      [...new Set([...keysBefore, ...referenced.map((r) => r.object_key)])].sort(),
    );
  }, 600_000);
});
