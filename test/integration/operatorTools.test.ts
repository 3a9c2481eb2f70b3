import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ensureGoTool, VERSITYGW } from '../../infra/goTools';
import { projectRoot } from '../../infra/paths';
import { startS3Server } from '../../infra/s3Server';
import { saveCheckpoint } from '../../cli/operator/checkpointQueries';
import { reconcile } from '../../cli/operator/reconcile';
import { mathReconciler } from '../../cli/operator/reconcileMath';
import { collectStatus } from '../../cli/operator/status';
import { verifyStorage, type VerifyStorageReport } from '../../cli/operator/verifyStorage';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { act } from '../helpers/math';
import { type DemoWorld, processEnv, setupDemoWorld } from '../helpers/reliability';
import { startStack, type TestStack } from '../helpers/stack';

const run = promisify(execFile);

let stack: TestStack;
let world: DemoWorld;

beforeAll(async () => {
  stack = await startStack();
  world = await setupDemoWorld(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

/** `npm run ops -- …` as an operator runs it, against the stack's resources; exit code and stdout. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
      cwd: projectRoot,
      env: processEnv(stack),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const reconcileDeps = () => ({ dataSource: stack.dataSource, temporal: stack.temporal });
const mathTask = async (taskId: string) =>
  (
    await stack.dataSource.query(
      'SELECT version, review_state, decision, assignee_id::text FROM math_tasks WHERE task_id = $1',
      [taskId],
    )
  )[0];

describe('ops reconcile', () => {
  test('a consistent system has no findings', async () => {
    const report = await reconcile(reconcileDeps(), { services: ['math', 'genomics'], repair: false });
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    const math = report.services.find((s) => s.service === 'math');
    expect(math?.withWorkflow).toBe(world.tasks.all.length);
  });

  test('a math projection changed behind the service is reported alone, repaired from the workflow, audited', async () => {
    const before = await mathTask('demo-q1-a');
    await stack.dataSource.query(
      `UPDATE math_tasks SET review_state = 'COMPLETED', decision = 'ACCEPTED' WHERE task_id = 'demo-q1-a'`,
    );

    const found = await reconcile(reconcileDeps(), { services: ['math'], repair: false });
    expect(found.ok).toBe(false);
    expect(found.findings).toEqual([
      expect.objectContaining({
        service: 'math',
        subjectId: 'demo-q1-a',
        outcome: 'diverged',
        projectionVersion: before.version,
        workflowVersion: before.version,
        differences: [
          { field: 'reviewState', projection: 'COMPLETED', workflow: before.review_state },
          { field: 'decision', projection: 'ACCEPTED', workflow: null },
        ],
      }),
    ]);
    expect((await mathTask('demo-q1-a')).review_state).toBe('COMPLETED');

    const repaired = await reconcile(reconcileDeps(), { services: ['math'], repair: true });
    expect(repaired.findings.map((f) => [f.subjectId, f.outcome])).toEqual([['demo-q1-a', 'repaired']]);
    expect(repaired.ok).toBe(true);
    expect(await mathTask('demo-q1-a')).toEqual(before);
    const audit = await stack.dataSource.query(
      `SELECT subject_id, workflow_version, differences FROM projection_repairs WHERE service = 'math'`,
    );
    expect(audit).toEqual([
      expect.objectContaining({ subject_id: 'demo-q1-a', workflow_version: before.version }),
    ]);

    const again = await reconcile(reconcileDeps(), { services: ['math'], repair: true });
    expect(again.findings).toEqual([]);
    // The repaired projection is what the workflow expects: the next action goes through.
    await act(stack, world.math.rui, 'demo-q1-a', { action: 'start' });
    expect((await mathTask('demo-q1-a')).review_state).toBe('IN_REVIEW');
  });

  test('a genomics topic and its assignment changed behind the service are restored; a topic with no workflow must be initial', async () => {
    const [topic] = await stack.dataSource.query(`SELECT id::text FROM genomics_topics WHERE uid = $1`, [
      world.topicUid,
    ]);
    await stack.dataSource.query(
      `UPDATE genomics_topics SET disposition = 'DISCARDED', status = 'CLOSED' WHERE id = $1`,
      [topic.id],
    );
    await stack.dataSource.query(`UPDATE genomics_assignments SET status = 'CANCELLED' WHERE id = $1`, [
      world.ids.assignmentId,
    ]);
    await stack.dataSource.query(`UPDATE genomics_topics SET decision = 'READY' WHERE uid = 'batch-001:2'`);

    const found = await reconcile(reconcileDeps(), { services: ['genomics'], repair: true });
    const bySubject = Object.fromEntries(found.findings.map((f) => [f.subjectId, f]));
    expect(Object.keys(bySubject).sort()).toEqual([world.topicUid, 'batch-001:2']);
    expect(bySubject[world.topicUid].outcome).toBe('repaired');
    expect(bySubject[world.topicUid].differences.map((d) => d.field)).toEqual([
      'disposition',
      'status',
      'assignment',
    ]);
    expect(bySubject['batch-001:2']).toMatchObject({ outcome: 'no_workflow', workflowVersion: null });
    expect(found.ok).toBe(false);

    const [restored] = await stack.dataSource.query(
      `SELECT t.disposition, t.status, a.status AS assignment_status
         FROM genomics_topics t JOIN genomics_assignments a ON a.topic_id = t.id WHERE t.id = $1`,
      [topic.id],
    );
    expect(restored).toEqual({ disposition: 'ACTIVE', status: 'OPEN', assignment_status: 'ACTIVE' });
    await stack.dataSource.query(`UPDATE genomics_topics SET decision = 'PENDING' WHERE uid = 'batch-001:2'`);
    expect((await reconcile(reconcileDeps(), { services: ['genomics'], repair: false })).findings).toEqual(
      [],
    );
  });

  test('a repair whose projection moved on since it was compared writes nothing (never backwards)', async () => {
    const [row] = await mathReconciler.page(stack.dataSource, null, 1);
    const state = await stack.temporal.workflow
      .getHandle(mathTaskWorkflowId(row.task_id))
      .query(mathTaskStateQuery);
    await act(stack, world.math.owner, row.task_id, { action: 'feedback', comment: 'Moved on meanwhile.' });
    const wrote = await stack.dataSource.transaction((tx) => mathReconciler.repair(tx, row, state));
    expect(wrote).toBe(false);
    expect((await mathTask(row.task_id)).version).toBe(state.version + 1);
  });

  test('run with --repair while the API moves tasks on, it reports no divergence and repairs nothing', async () => {
    const moving = world.tasks.all;
    const repairsBefore = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM projection_repairs WHERE service = 'math'`,
    );
    let live = true;
    let actions = 0;
    const traffic = (async () => {
      while (live) {
        for (const taskId of moving) {
          await act(stack, world.math.owner, taskId, { action: 'feedback', comment: `Live ${actions}.` });
          actions += 1;
        }
      }
    })();
    const reports = [];
    try {
      // Each pass checks every task while feedback actions commit; some catch a task between its persisted
      // projection and the workflow adopting the new state, which must be re-checked, not repaired.
      for (let pass = 0; pass < 100 && (pass < 4 || actions < 3 * moving.length); pass += 1)
        reports.push(await reconcile(reconcileDeps(), { services: ['math'], repair: true, concurrency: 4 }));
    } finally {
      live = false;
      await traffic;
    }
    expect(actions).toBeGreaterThanOrEqual(moving.length);
    for (const report of reports) {
      expect(report.findings.filter((f) => f.outcome !== 'changing')).toEqual([]);
      expect(report.services[0].checked).toBe(world.tasks.all.length);
    }
    const repairsAfter = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM projection_repairs WHERE service = 'math'`,
    );
    expect(repairsAfter).toEqual(repairsBefore);
    const settled = await reconcile(reconcileDeps(), { services: ['math'], repair: false });
    expect(settled.findings).toEqual([]);
  });

  test('an interrupted run resumes after its checkpoint', async () => {
    await saveCheckpoint(stack.dataSource, 'reconcile:math', 'demo-q2-a', { checked: 2, findings: 0 });
    const report = await reconcile(reconcileDeps(), { services: ['math'], repair: false });
    expect(report.services[0]).toMatchObject({ resumedAfter: 'demo-q2-a', checked: 2 });
    const next = await reconcile(reconcileDeps(), { services: ['math'], repair: false });
    expect(next.services[0]).toMatchObject({ resumedAfter: null, checked: world.tasks.all.length });
  });
});

describe('ops verify-storage', () => {
  test('a deleted and an altered object: both reported, exit code 1, findings in storage_audit', async () => {
    const artifacts: Array<{ object_key: string; artifact_id: string }> = await stack.dataSource.query(
      `SELECT DISTINCT ON (object_key) object_key, artifact_id FROM math_artifacts ORDER BY object_key LIMIT 2`,
    );
    const [deleted, altered] = artifacts.map((a) => a.object_key);
    const { bucket } = stack.config.s3;
    await stack.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: deleted }));
    await stack.s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: altered, Body: 'not the bytes recorded' }),
    );

    const result = await ops('verify-storage', '--json');
    expect(result.code).toBe(1);
    const document = JSON.parse(result.stdout) as {
      ok: boolean;
      error: { code: string; report: VerifyStorageReport };
    };
    expect(document).toMatchObject({ ok: false, error: { code: 'storage_damaged' } });
    const { report } = document.error;
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.kind, f.key]).sort()).toEqual(
      [
        ['altered', altered],
        ['missing', deleted],
      ].sort(),
    );
    expect(report.findings.find((f) => f.kind === 'altered')?.actual?.sizeBytes).toBe(22);
    const audit = await stack.dataSource.query(
      `SELECT kind, object_key FROM storage_audit WHERE detail->>'found_by' = 'verify-storage' ORDER BY kind`,
    );
    expect(audit).toEqual([
      { kind: 'object_mismatch', object_key: altered },
      { kind: 'object_missing', object_key: deleted },
    ]);
  }, 120_000);

  test('an object no row names is reported orphaned; a rate limit holds the read rate', async () => {
    const orphanKey = `sha256/00/orphan-${Date.now()}`;
    await stack.s3.send(
      new PutObjectCommand({ Bucket: stack.config.s3.bucket, Key: orphanKey, Body: Buffer.alloc(1000) }),
    );
    const deps = { dataSource: stack.dataSource, s3: stack.s3, bucket: stack.config.s3.bucket };
    const recent = await verifyStorage(deps, { orphanGraceMs: 60_000 });
    expect(recent.findings.some((f) => f.key === orphanKey)).toBe(false);

    const report = await verifyStorage(deps, { orphanGraceMs: 0, rateMiBPerSecond: 0.05 });
    expect(report.findings.filter((f) => f.kind === 'orphaned')).toEqual([
      expect.objectContaining({ key: orphanKey, actual: { sizeBytes: 1000, sha256: null } }),
    ]);
    // 0.05 MiB/s: the bytes read cannot have taken less than bytes / rate.
    expect(report.elapsedMs).toBeGreaterThanOrEqual((report.bytesRead / (0.05 * 1024 * 1024)) * 1000 - 50);
    const [row] = await stack.dataSource.query(
      `SELECT service, subject_type, expected_sha256 FROM storage_audit WHERE kind = 'object_orphaned'`,
    );
    expect(row).toEqual({ service: null, subject_type: 'object', expected_sha256: null });

    // The same from the command line: within a 60-minute grace the new object is not orphaned, with none it is.
    // (The objects damaged by the test above are still reported: exit code 1 either way.)
    const orphansWithGrace = async (minutes: string) => {
      const run = await ops('verify-storage', '--restart', '--orphan-grace', minutes, '--json');
      expect(run.code).toBe(1);
      const document = JSON.parse(run.stdout) as {
        error: { report: { findings: Array<{ kind: string; key: string }> } };
      };
      return document.error.report.findings.filter((f) => f.kind === 'orphaned').map((f) => f.key);
    };
    expect(await orphansWithGrace('60')).toEqual([]);
    expect(await orphansWithGrace('0')).toEqual([orphanKey]);
  }, 120_000);

  test('an interrupted run resumes after its checkpoint and reads only the objects after it, in key order', async () => {
    const deps = { dataSource: stack.dataSource, s3: stack.s3, bucket: stack.config.s3.bucket };
    const full = await verifyStorage(deps, { restart: true });
    expect(full.objectsChecked).toBe(full.objectsNamed);
    const keys: Array<{ object_key: string }> = await stack.dataSource.query(
      `SELECT DISTINCT object_key COLLATE "C" AS object_key FROM math_artifacts ORDER BY 1`,
    );
    const position = keys[Math.floor(keys.length / 2)].object_key;
    await saveCheckpoint(stack.dataSource, 'verify-storage', position, { findings: 0 });
    const resumed = await verifyStorage(deps);
    expect(resumed.resumedAfter).toBe(position);
    expect(resumed.objectsChecked).toBeGreaterThan(0);
    expect(resumed.objectsChecked).toBeLessThan(full.objectsNamed);
    // Every finding of the resumed run lies after the checkpoint; none of the full run's after it is missed.
    const after = (report: VerifyStorageReport) =>
      report.findings.filter((f) => f.kind !== 'orphaned' && f.key > position).map((f) => f.key);
    expect(resumed.findings.filter((f) => f.kind !== 'orphaned').every((f) => f.key > position)).toBe(true);
    expect(after(resumed).sort()).toEqual(after(full).sort());
  }, 120_000);
});

describe('ops status', () => {
  test('names a dependency that is stopped, with its address', async () => {
    const up = await collectStatus(stack.config);
    expect(up.dependencies.map((d) => [d.name, d.up])).toEqual([
      ['postgresql', true],
      ['temporal', true],
      ['worker', true],
      ['s3', true],
    ]);
    expect(up.schema?.behind).toBe(false);
    const mathCounts = up.workflows.find((w) => w.workflowType === 'mathTaskWorkflow');
    expect(mathCounts?.byStatus.Running).toBe(world.tasks.all.length);
    expect(Object.values(mathCounts?.runningByState ?? {}).reduce((a, b) => a + b, 0)).toBe(
      world.tasks.all.length,
    );
    expect(up.keysExpiringSoon).toEqual([]);

    const rootDir = await mkdtemp(join(tmpdir(), 'referee-status-s3-'));
    const s3Server = await startS3Server({
      binary: await ensureGoTool(VERSITYGW),
      rootDir,
      buckets: ['status-bucket'],
    });
    const s3 = {
      ...stack.config.s3,
      endpoint: s3Server.endpoint,
      accessKeyId: s3Server.accessKeyId,
      secretAccessKey: s3Server.secretAccessKey,
      bucket: 'status-bucket',
    };
    try {
      expect((await collectStatus({ ...stack.config, s3 })).ok).toBe(true);
      await s3Server.stop();
      // A refused connection fails at once; the budget is for the other probes, slow on a loaded CI machine.
      const down = await collectStatus({ ...stack.config, s3 }, { timeoutMs: 10_000 });
      expect(down.ok).toBe(false);
      expect(down.dependencies.filter((d) => !d.up)).toEqual([
        expect.objectContaining({ name: 's3', address: `${s3Server.endpoint} bucket status-bucket` }),
      ]);
    } finally {
      await s3Server.stop();
      await rm(rootDir, { recursive: true, force: true });
    }

    const cli = await ops('status', '--json');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, status: { ok: true } });
  }, 120_000);
});
