import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type BundleProblem,
  bundleDigest,
  bundlePathProblem,
  describeProblem,
  InvalidBundleError,
  readBundleFormat,
} from '../../activities/bundles/common';
import { readGenomicsBundle, validateGenomicsBundle } from '../../activities/bundles/genomicsBundle';
import { readMathBundle, validateMathBundle } from '../../activities/bundles/mathBundle';
import { invalidBundleFailure } from '../../activities/importCommon';
import { projectRoot } from '../../infra/paths';
import { generateBundle } from '../../scripts/generateBundle';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const folders: string[] = [];
/** A new temporary folder, deleted after the tests. */
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `referee-unit-${prefix}-`));
  folders.push(dir);
  return dir;
}
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

async function writeBundle(manifest: object, files: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir('bundle');
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

async function problemsOf(check: Promise<unknown>): Promise<string[]> {
  try {
    await check;
    return [];
  } catch (error) {
    if (!(error instanceof InvalidBundleError)) throw error;
    return error.problems.map(describeProblem);
  }
}

const REPORT = '# Report\n';
const base = () => ({
  format: 'referee.math-run/1',
  run: { run_id: 'unit-run', title: 'Unit run' },
  clients: [{ name: 'Acme Research' }],
  topics: [{ topic_id: 'topic-a', title: 'Topic A' }],
  artifacts: [
    {
      artifact_id: 'art-report',
      path: 'files/report.md',
      kind: 'REPORT',
      class: 'STANDARD',
      media_type: 'text/markdown',
      sha256: sha256(REPORT),
      size_bytes: REPORT.length,
    },
  ],
  reports: [{ report_id: 'rep-1', artifact_id: 'art-report', source_id: null }],
  tasks: [
    {
      task_id: 'task-1',
      topic_id: 'topic-a',
      question_id: 'q1',
      title: 'First',
      problem: 'Prove it.',
      report_id: 'rep-1',
      client: 'Acme Research',
    },
    {
      task_id: 'task-2',
      topic_id: 'topic-a',
      question_id: 'q1',
      title: 'Second',
      problem: '',
      report_id: null,
    },
  ],
  evidence: [{ task_id: 'task-1', report_id: 'rep-1', rubric: { total: 1 }, review: null }],
});

describe('math bundle validation', () => {
  it("keeps a bundle's identity from one version to the next, so a bundle imported before is still unchanged", async () => {
    // Digests recorded by imports already made: a change to how they are computed would import every bundle again.
    expect((await validateMathBundle(join(projectRoot, 'demo', 'math-run'))).digest).toBe(
      '0a27bfdd82acf7b887e835903373f7980ba277aa16676ab6053a9b3db8a00aa0',
    );
    expect(
      (await validateMathBundle(join(projectRoot, 'test', 'fixtures', 'math-lists', 'run-a'))).digest,
    ).toBe('ddb705bad017c7a6bd0237913b25784a491936bfb7ec4d9e30688252c110d29f');
    expect((await validateGenomicsBundle(join(projectRoot, 'demo', 'genomics'))).digest).toBe(
      '7a8f0eb6326789f032f33f8d1135299c113b108bd0990eb9599a128eaf374e6f',
    );
  });

  it('accepts the demo run, the list fixtures and generated bundles in both layouts', async () => {
    for (const dir of [
      join(projectRoot, 'demo', 'math-run'),
      join(projectRoot, 'test', 'fixtures', 'math-lists', 'run-a'),
      join(projectRoot, 'test', 'fixtures', 'math-lists', 'run-c'),
    ]) {
      expect(await problemsOf(validateMathBundle(dir))).toEqual([]);
    }
    for (const layout of ['inline', 'jsonl'] as const) {
      const out = await tempDir('generated');
      const generated = await generateBundle({ service: 'math', tasks: 60, out, seed: 2, layout });
      const bundle = await validateMathBundle(out);
      expect(bundle.counts).toMatchObject({
        tasks: 60,
        artifacts: generated.counts.artifacts,
        evidence: generated.counts.evidence,
        clients: 12,
      });
    }
  });

  it('lists every schema problem with its JSON path, one problem per mistake', async () => {
    const m: any = base();
    delete m.run.title;
    m.run.extra = true;
    m.artifacts[0].kind = 'SLIDES';
    m.artifacts[0].media_type = 'text/markdown\r\nX-Injected: 1';
    m.tasks[0].report_id = 'bad id';
    m.tasks[1].client = ' padded ';
    m.run.started_at = '2026-01-01';
    m.tasks_file = { path: 'tasks.jsonl' };
    expect(await problemsOf(readMathBundle(await writeBundle(m)))).toEqual([
      'manifest.json $: must be given exactly one of tasks (inline) and tasks_file (JSONL)',
      'manifest.json $.run.title: is required',
      'manifest.json $.run.extra: is not allowed',
      'manifest.json $.run.started_at: must be a date-time with a time zone (RFC 3339)',
      'manifest.json $.artifacts.0.kind: must be one of REPORT, CHECKPOINT, PUBLIC_INPUT, PUBLIC_TASKS, EVIDENCE',
      'manifest.json $.artifacts.0.media_type: must be a media type such as text/markdown or text/plain; charset=utf-8',
      "manifest.json $.tasks.0.report_id: must be an id (a letter or digit, then up to 127 letters, digits, '.', '_', ':' or '-') or null",
      'manifest.json $.tasks.1.client: must be a client name (2 to 100 characters, no leading or trailing white space, no NUL) or null',
      // art-report failed its own check (kind, media_type): reports.0 referring to it is not "unknown" too.
      'manifest.json $.tasks_file.path: tasks.jsonl: file not found',
      // tasks_file wins over tasks, and names no file: the evidence has no task either.
      'manifest.json $.evidence.0.task_id: unknown task "task-1"',
    ]);
  });

  it('reports a record that failed its own check once, not again as unknown where it is referenced', async () => {
    const m: any = base();
    m.topics[0].title = '';
    m.tasks[0].title = '';
    m.tasks[1].topic_id = 'topic-missing';
    const problems = await problemsOf(
      validateMathBundle(await writeBundle(m, { 'files/report.md': REPORT })),
    );
    expect(problems.filter((p) => p.includes('unknown'))).toEqual([
      'manifest.json $.tasks.1.topic_id: unknown topic "topic-missing"',
    ]);
    expect(problems.some((p) => p.startsWith('manifest.json $.topics.0.title'))).toBe(true);
    expect(problems.some((p) => p.startsWith('manifest.json $.tasks.0.title'))).toBe(true);
  });

  it('lists every cross-reference problem: unknown references, duplicate ids, paths outside the bundle', async () => {
    const m: any = base();
    m.clients.push({ name: 'ACME RESEARCH' });
    m.topics.push({ topic_id: 'topic-a', title: 'Again' });
    m.artifacts.push({ ...m.artifacts[0], artifact_id: 'art-escape', path: 'files/../../etc/passwd' });
    m.artifacts.push({ ...m.artifacts[0], artifact_id: 'art-ckpt', kind: 'CHECKPOINT' });
    m.reports.push({ report_id: 'rep-2', artifact_id: 'art-ckpt' });
    m.reports.push({ report_id: 'rep-3', artifact_id: 'art-none' });
    m.tasks.push({
      ...m.tasks[0],
      task_id: 'task-3',
      topic_id: 'topic-z',
      report_id: 'rep-9',
      client: 'Nobody',
    });
    m.tasks.push({ ...m.tasks[1] });
    m.evidence.push({ task_id: 'task-2', report_id: 'rep-1' }, { task_id: 'task-9', report_id: 'rep-1' });
    m.evidence.push({ task_id: 'task-1', report_id: 'rep-1' });
    // The same unknown report as its task's (reported once, with the task), and a second evidence of an unknown task.
    m.evidence.push({ task_id: 'task-3', report_id: 'rep-9' }, { task_id: 'task-9', report_id: 'rep-1' });
    expect(await problemsOf(readMathBundle(await writeBundle(m, { 'files/report.md': REPORT })))).toEqual([
      'manifest.json $.topics.1.topic_id: duplicate topic_id "topic-a" (first at manifest.json $.topics.0.topic_id)',
      'manifest.json $.clients.1.name: duplicate client name (names ignore case) "ACME RESEARCH" (first at manifest.json $.clients.0.name)',
      'manifest.json $.artifacts.1.path: must be a relative path inside the bundle',
      'manifest.json $.reports.1.artifact_id: artifact "art-ckpt" is a CHECKPOINT, not a REPORT',
      'manifest.json $.reports.2.artifact_id: unknown artifact "art-none"',
      'manifest.json $.tasks.2.topic_id: unknown topic "topic-z"',
      'manifest.json $.tasks.2.report_id: unknown report "rep-9"',
      'manifest.json $.tasks.2.client: unknown client "Nobody" (not in clients)',
      'manifest.json $.tasks.3.task_id: duplicate task_id "task-2" (first at manifest.json $.tasks.1.task_id)',
      'manifest.json $.evidence.1.report_id: task "task-2" does not map to report "rep-1"',
      'manifest.json $.evidence.2.task_id: unknown task "task-9"',
      'manifest.json $.evidence.3.task_id: duplicate evidence for task "task-1" (first at manifest.json $.evidence.0.task_id)',
      'manifest.json $.evidence.5.task_id: duplicate evidence for task "task-9" (first at manifest.json $.evidence.2.task_id)',
    ]);
  });

  it('reads tasks and evidence from JSONL files, with problems by line', async () => {
    const m: any = base();
    const tasks = m.tasks;
    delete m.tasks;
    delete m.evidence;
    const tasksText = `${JSON.stringify(tasks[0])}\n\n{"task_id": "x"}\nnot json\n${JSON.stringify(tasks[1])}\n`;
    m.tasks_file = { path: 'tasks.jsonl', sha256: sha256(tasksText) };
    m.evidence_file = { path: 'evidence.jsonl', sha256: '1'.repeat(64) };
    const evidenceText = [
      { task_id: 'task-2', report_id: 'rep-1', rubric: { a: 'x'.repeat(70_000) } },
      { task_id: 'task-1', report_id: 'rep-1' },
      { task_id: 'task-2', report_id: 'rep-1' },
    ]
      .map((e) => `${JSON.stringify(e)}\n`)
      .join('');
    const dir = await writeBundle(m, {
      'files/report.md': REPORT,
      'tasks.jsonl': tasksText,
      'evidence.jsonl': evidenceText,
    });
    expect(await problemsOf(readMathBundle(dir))).toEqual([
      'tasks.jsonl:3 $.topic_id: is required',
      'tasks.jsonl:3 $.question_id: is required',
      'tasks.jsonl:3 $.title: is required',
      'tasks.jsonl:3 $.problem: is required',
      'tasks.jsonl:3 $.report_id: is required',
      expect.stringMatching(/^tasks\.jsonl:4 \$: is not valid JSON: /),
      `manifest.json $.evidence_file.sha256: evidence.jsonl has SHA-256 ${sha256(evidenceText)}, the manifest says ${'1'.repeat(64)}`,
      'evidence.jsonl:1 $.report_id: task "task-2" does not map to report "rep-1"',
      'evidence.jsonl:1 $.rubric: must be at most 65536 characters as JSON',
      'evidence.jsonl:3 $.task_id: duplicate evidence for task "task-2" (first at evidence.jsonl:1)',
    ]);
  });

  it('reads artifacts and reports from JSONL files: the same checks, problems by line, files by line', async () => {
    const m: any = base();
    const jsonl = (records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
    const artifacts = [
      ...m.artifacts,
      { ...m.artifacts[0], artifact_id: 'art-ckpt', kind: 'CHECKPOINT', sha256: '2'.repeat(64) },
      { ...m.artifacts[0], artifact_id: 'art-report', path: 'files/other.md' },
    ];
    const reports = [...m.reports, { report_id: 'rep-2', artifact_id: 'art-ckpt' }, { report_id: 'rep-3' }];
    delete m.artifacts;
    delete m.reports;
    m.artifacts_file = { path: 'artifacts.jsonl' };
    m.reports_file = { path: 'reports.jsonl' };
    const dir = await writeBundle(m, {
      'files/report.md': REPORT,
      'artifacts.jsonl': jsonl(artifacts),
      'reports.jsonl': jsonl(reports),
    });
    expect(await problemsOf(validateMathBundle(dir))).toEqual([
      'artifacts.jsonl:3 $.artifact_id: duplicate artifact_id "art-report" (first at artifacts.jsonl:1)',
      'reports.jsonl:2 $.artifact_id: artifact "art-ckpt" is a CHECKPOINT, not a REPORT',
      'reports.jsonl:3 $.artifact_id: is required',
      `artifacts.jsonl:2 $.sha256: files/report.md has SHA-256 ${sha256(REPORT)}, its record says ${'2'.repeat(64)}`,
    ]);

    // Valid lists in JSONL count as the same lists inline do; the record files are part of the identity.
    await writeFile(join(dir, 'artifacts.jsonl'), jsonl(artifacts.slice(0, 1)));
    await writeFile(join(dir, 'reports.jsonl'), jsonl(reports.slice(0, 1)));
    const streamed = await validateMathBundle(dir);
    const inline = await validateMathBundle(await writeBundle(base(), { 'files/report.md': REPORT }));
    expect(streamed.counts).toEqual(inline.counts);
    expect(streamed.counts).toMatchObject({ artifacts: 1, reports: 1 });
    expect(streamed.sha256).not.toBe(inline.sha256);

    m.artifacts = artifacts.slice(0, 1);
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(m));
    expect(await problemsOf(readMathBundle(dir))).toEqual([
      'manifest.json $: must be given exactly one of artifacts (inline) and artifacts_file (JSONL)',
    ]);
  });

  it('checks files: present, inside the bundle, with the size and SHA-256 the manifest gives', async () => {
    const m: any = base();
    m.artifacts.push(
      { ...m.artifacts[0], artifact_id: 'art-missing', path: 'files/missing.md' },
      { ...m.artifacts[0], artifact_id: 'art-size', path: 'files/size.md', sha256: undefined, size_bytes: 3 },
      { ...m.artifacts[0], artifact_id: 'art-sha', path: 'files/sha.md', size_bytes: undefined },
      {
        ...m.artifacts[0],
        artifact_id: 'art-link',
        path: 'files/link.md',
        sha256: undefined,
        size_bytes: undefined,
      },
      { ...m.artifacts[0], artifact_id: 'art-dir', path: 'files', sha256: undefined, size_bytes: undefined },
    );
    const dir = await writeBundle(m, {
      'files/report.md': REPORT,
      'files/size.md': 'four',
      'files/sha.md': 'other',
    });
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(dir, 'files', 'link.md'));
    expect(await problemsOf(validateMathBundle(dir))).toEqual([
      'manifest.json $.artifacts.1.path: files/missing.md: file not found',
      'manifest.json $.artifacts.2.size_bytes: files/size.md has 4 bytes, the manifest says 3',
      `manifest.json $.artifacts.3.sha256: files/sha.md has SHA-256 ${sha256('other')}, the manifest says ${sha256(REPORT)}`,
      'manifest.json $.artifacts.4.path: files/link.md: resolves outside the bundle',
      'manifest.json $.artifacts.5.path: files: is not a regular file',
    ]);
  });

  it('gives a bundle an identity that changes with any file, checksum given or not', async () => {
    const m: any = base();
    delete m.artifacts[0].sha256;
    delete m.artifacts[0].size_bytes;
    const dir = await writeBundle(m, { 'files/report.md': REPORT });
    const first = await validateMathBundle(dir);
    expect((await validateMathBundle(dir)).digest).toBe(first.digest);
    await writeFile(join(dir, 'files', 'report.md'), '# Report, corrected\n');
    const second = await validateMathBundle(dir);
    expect(second.sha256).toBe(first.sha256);
    expect(second.digest).not.toBe(first.digest);
  });

  it('refuses a manifest that is not JSON, and paths that leave the bundle', async () => {
    const dir = await tempDir('bundle');
    await writeFile(join(dir, 'manifest.json'), '{"format": ');
    expect(await problemsOf(readMathBundle(dir))).toEqual([
      expect.stringMatching(/^manifest\.json \$: is not valid JSON: /),
    ]);
    expect(await problemsOf(readMathBundle(join(dir, 'nowhere')))).toEqual([
      'manifest.json $: file not found',
    ]);
    expect(
      ['a/b.md', 'a/../b.md', '../b.md', '/etc/passwd', 'a/../../b', 'a\\b', '..'].map(bundlePathProblem),
    ).toEqual([
      null,
      null,
      'must be a relative path inside the bundle',
      'must be a relative path inside the bundle',
      'must be a relative path inside the bundle',
      'must be a relative path inside the bundle',
      'must be a relative path inside the bundle',
    ]);
  });
});

/** A genomics bundle of only a manifest, validated without a workspace reference check. */
async function readGenomicsBundleManifestOnly(manifest: object): Promise<unknown> {
  return validateGenomicsBundle(await writeBundle(manifest), async () => []);
}

describe('genomics bundle validation', () => {
  it('checks topic markdown and files, and the caller’s reference check, all in one list', async () => {
    const dir = await writeBundle(
      {
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'g-1', batch: 'batch-010' },
        topics: [
          { topic: 1, markdown_path: 'topics/1.md' },
          { topic: 2, markdown_path: 'topics/2.md' },
          { topic: 3, title: '' },
        ],
        reports: [
          {
            report_id: 'r',
            topic: 7,
            title: 't',
            file: { path: 'r.md', media_type: 'text/markdown', size_bytes: 9 },
          },
        ],
      },
      { 'topics/1.md': '# ok\u0000', 'r.md': '# r' },
    );
    await writeFile(join(dir, 'topics', '2.md'), Buffer.from([0xc3, 0x28]));
    const seen: number[] = [];
    const problems = await problemsOf(
      validateGenomicsBundle(dir, async (references) => {
        seen.push(...references.topics);
        return [{ file: 'manifest.json', path: '$.reports.0.topic', message: 'unknown topic' }];
      }),
    );
    expect(seen).toEqual([7]);
    expect(problems).toEqual([
      'manifest.json $.topics.2.title: must NOT have fewer than 1 characters',
      'manifest.json $.reports.0.file.size_bytes: r.md has 3 bytes, the manifest says 9',
      'manifest.json $.topics.0.markdown_path: topics/1.md must not contain a NUL character',
      'manifest.json $.topics.1.markdown_path: topics/2.md is not UTF-8 text',
      'manifest.json $.reports.0.topic: unknown topic',
    ]);
  });

  it('reports a client that failed its own check once, not again as unknown where a topic names it', async () => {
    const problems = await problemsOf(
      readGenomicsBundleManifestOnly({
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'g-2', batch: 'batch-011' },
        clients: [{ client_id: 'acme', name: '', enabled: true }],
        topics: [{ topic: 1, title: 'T', client_ids: ['acme', 'nobody'] }],
      }),
    );
    expect(problems.filter((p) => p.includes('unknown'))).toEqual([
      'manifest.json $.topics.0.client_ids.1: unknown client "nobody"',
    ]);
    expect(problems.some((p) => p.startsWith('manifest.json $.clients.0.name'))).toBe(true);
  });

  it('accepts the demo bundle and generated ones in both layouts', async () => {
    expect(await problemsOf(validateGenomicsBundle(join(projectRoot, 'demo', 'genomics')))).toEqual([]);
    for (const layout of ['inline', 'jsonl'] as const) {
      const out = await tempDir('genomics');
      const generated = await generateBundle({ service: 'genomics', tasks: 30, out, seed: 4, layout });
      expect((await validateGenomicsBundle(out)).counts).toMatchObject({
        topics: 30,
        measurements: 60,
        reports: generated.counts.reports,
        publications: generated.counts.publications,
      });
    }
  });

  const GENOMICS_LISTS = ['topics', 'measurements', 'reports', 'revisions', 'publications'] as const;
  const genomicsFile = (path: string) => ({ path, media_type: 'text/markdown' });
  /** A small genomics bundle with every large list, and its files. */
  const genomicsBundle = () => ({
    manifest: {
      format: 'referee.genomics/1',
      bundle: { bundle_id: 'g-jsonl', batch: 'batch-020' },
      campaigns: [{ campaign_id: 'c-1', name: 'Campaign' }],
      clients: [{ client_id: 'acme', name: 'Acme' }],
      topics: [
        { topic: 1, title: 'One', markdown_path: 'topics/1.md', campaign_id: 'c-1', client_ids: ['acme'] },
        { topic: 2, title: 'Two' },
      ] as object[],
      measurements: [
        {
          measurement_id: 'm-1',
          topic: 1,
          model_id: 'x',
          scope: 'original_report',
          measured_at: '2026-01-01T00:00:00Z',
          scientific_passes: 1,
          completed: 2,
          evidence: { ...genomicsFile('e.md'), sha256: sha256('# e\n') },
        },
      ] as object[],
      reports: [{ report_id: 'r-1', topic: 2, title: 'R', file: genomicsFile('r.md') }] as object[],
      revisions: [
        { revision_id: 'v-1', topic: 1, campaign_id: 'c-1', file: genomicsFile('v.md') },
      ] as object[],
      publications: [
        { publication_id: 'p-1', topic: 1, revision_id: 'v-1', title: 'P', file: genomicsFile('p.md') },
      ] as object[],
    } as Record<string, any>,
    files: { 'topics/1.md': '# one\n', 'e.md': '# e\n', 'r.md': '# r\n', 'v.md': '# v\n', 'p.md': '# p\n' },
  });
  const jsonlOf = (records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
  /** The same bundle with every large list moved to `<list>.jsonl`. */
  const asJsonl = ({ manifest, files }: ReturnType<typeof genomicsBundle>) => {
    const m: Record<string, any> = { ...manifest };
    const texts: Record<string, string> = { ...files };
    for (const key of GENOMICS_LISTS) {
      texts[`${key}.jsonl`] = jsonlOf(m[key]);
      m[`${key}_file`] = { path: `${key}.jsonl`, sha256: sha256(texts[`${key}.jsonl`]) };
      delete m[key];
    }
    return { manifest: m, files: texts };
  };

  it('counts a file named by several records once and refuses a second, different SHA-256 for it', async () => {
    const { manifest, files } = genomicsBundle();
    const evidence = manifest.measurements[0].evidence;
    manifest.reports.push({ report_id: 'r-2', topic: 2, title: 'R2', file: { ...evidence } });
    manifest.reports.push({ report_id: 'r-3', topic: 2, title: 'R3', file: genomicsFile('e.md') });
    manifest.reports.push({
      report_id: 'r-4',
      topic: 2,
      title: 'R4',
      file: { ...evidence, sha256: '2'.repeat(64) },
    });
    const dir = await writeBundle(manifest, files);
    expect(await problemsOf(validateGenomicsBundle(dir))).toEqual([
      'manifest.json $.reports.3.file.sha256: file e.md is given two different sha256 values',
      `manifest.json $.reports.3.file.sha256: e.md has SHA-256 ${sha256('# e\n')}, the manifest says ${'2'.repeat(64)}`,
    ]);
    manifest.reports.pop();
    const valid = await validateGenomicsBundle(await writeBundle(manifest, files));
    expect(valid.storedFiles).toBe(4);
    expect(valid.counts.reports).toBe(3);
  });

  it('reads its large lists from JSONL files: the same records and files as inline, an inline identity unchanged', async () => {
    const inlineBundle = genomicsBundle();
    const inlineDir = await writeBundle(inlineBundle.manifest, inlineBundle.files);
    const streamed = asJsonl(genomicsBundle());
    const streamedDir = await writeBundle(streamed.manifest, streamed.files);
    const [inline, jsonl] = [
      await validateGenomicsBundle(inlineDir),
      await validateGenomicsBundle(streamedDir),
    ];
    expect(jsonl.counts).toEqual(inline.counts);
    expect(jsonl.counts).toMatchObject({
      topics: 2,
      measurements: 1,
      reports: 1,
      revisions: 1,
      publications: 1,
    });
    expect(jsonl.storedFiles).toBe(4);
    expect([...jsonl.files.keys()].sort()).toEqual([...inline.files.keys()].sort());
    // The record files are part of the identity of a bundle that has them...
    expect(jsonl.sha256).not.toBe(inline.sha256);
    expect(jsonl.digest).not.toBe(inline.digest);
    // ...and a bundle without any keeps the identity it had before lists could be files: its sha256 is
    // manifest.json's SHA-256, its digest bundleDigest over that and every file it names.
    const manifestText = JSON.stringify(inlineBundle.manifest, null, 1);
    expect(inline.sha256).toBe(sha256(manifestText));
    expect(inline.digest).toBe(bundleDigest(sha256(manifestText), inline.files.keys(), inline.files));
  });

  it('reports problems of JSONL records by file and line, references outside the bundle included', async () => {
    const { manifest, files } = asJsonl(genomicsBundle());
    const topics = [
      { topic: 1, title: 'One', markdown_path: 'topics/1.md', client_ids: ['nobody'] },
      { topic: 1, title: 'Again' },
      { topic: 3, title: '' },
    ];
    const publications = [
      { publication_id: 'p-1', topic: 2, revision_id: 'v-1', title: 'P', file: genomicsFile('p.md') },
      { publication_id: 'p-2', topic: 9, title: 'Q', file: genomicsFile('missing.md') },
    ];
    files['topics.jsonl'] = `${jsonlOf(topics)}{"topic": 4,\n`;
    files['publications.jsonl'] = jsonlOf(publications);
    manifest.topics_file = { path: 'topics.jsonl' };
    manifest.publications_file = { path: 'publications.jsonl' };
    const dir = await writeBundle(manifest, files);
    const references: unknown[] = [];
    const problems = await problemsOf(
      validateGenomicsBundle(dir, async (r) => {
        references.push(r);
        return r.places.map(({ place, key }) => ({ ...place, message: `topic ${key} is unknown` }));
      }),
    );
    expect(problems).toEqual([
      'topics.jsonl:1 $.client_ids.0: unknown client "nobody"',
      'topics.jsonl:2 $.topic: duplicate topic "1" (first at topics.jsonl:1)',
      'topics.jsonl:3 $.title: must NOT have fewer than 1 characters',
      expect.stringMatching(/^topics\.jsonl:4 \$: is not valid JSON: /),
      'publications.jsonl:1 $.revision_id: revision "v-1" belongs to another topic',
      'publications.jsonl:2 $.file.path: missing.md: file not found',
      // Topic 2 is no longer listed: the report and the publication that name it refer outside the bundle.
      'reports.jsonl:1 $.topic: topic 2 is unknown',
      'publications.jsonl:1 $.topic: topic 2 is unknown',
      'publications.jsonl:2 $.topic: topic 9 is unknown',
    ]);
    const place = (file: string, line: number) => ({ file, path: '$.topic', line });
    expect(references).toEqual([
      {
        batch: 'batch-020',
        topics: [2, 9],
        campaigns: [],
        places: [
          { kind: 'topic', key: '2', place: place('reports.jsonl', 1) },
          { kind: 'topic', key: '2', place: place('publications.jsonl', 1) },
          { kind: 'topic', key: '9', place: place('publications.jsonl', 2) },
        ],
      },
    ]);
  });

  it('refuses a list given both inline and as a JSONL file, and a record file it cannot read', async () => {
    const { manifest, files } = asJsonl(genomicsBundle());
    manifest.reports = [];
    manifest.revisions_file = { path: '../revisions.jsonl' };
    manifest.publications_file.sha256 = '0'.repeat(64);
    delete files['measurements.jsonl'];
    const problems = await problemsOf(readGenomicsBundle(await writeBundle(manifest, files)));
    expect(problems).toEqual([
      'manifest.json $: must be given at most one of reports (inline) and reports_file (JSONL)',
      'manifest.json $.measurements_file.path: measurements.jsonl: file not found',
      'manifest.json $.revisions_file.path: must be a relative path inside the bundle',
      `manifest.json $.publications_file.sha256: publications.jsonl has SHA-256 ${sha256(files['publications.jsonl'])}, the manifest says ${'0'.repeat(64)}`,
      // The revisions were not read: the publication's revision is unknown.
      'publications.jsonl:1 $.revision_id: unknown revision "v-1"',
    ]);
  });
});

describe('readBundleFormat', () => {
  it('reads the format from the start of the manifest, or from the whole of it when it comes later', async () => {
    const first = await writeBundle({ format: 'referee.genomics/1', bundle: {} });
    const later = await writeBundle({ run: { run_id: 'x' }, format: 'referee.math-run/1' });
    const none = await writeBundle({ format: 7 });
    expect(await Promise.all([first, later, none].map(readBundleFormat))).toEqual([
      'referee.genomics/1',
      'referee.math-run/1',
      null,
    ]);
  });
});

describe('the invalid_bundle failure of a planning activity', () => {
  it('carries the first 200 problems and the total, so it fits a Temporal payload', () => {
    const problems: BundleProblem[] = Array.from({ length: 1000 }, (_, i) => ({
      file: 'tasks.jsonl',
      line: i + 1,
      path: '$.topic_id',
      message: 'unknown topic "x"',
    }));
    const failure = invalidBundleFailure(new InvalidBundleError(problems));
    expect(failure.type).toBe('invalid_bundle');
    expect(failure.nonRetryable).toBe(true);
    const [details] = failure.details as Array<{ problems: BundleProblem[]; total: number }>;
    expect(details.total).toBe(1000);
    expect(details.problems).toHaveLength(200);
    expect(failure.message).toContain('… and 800 more');
  });
});
