import schema from '../../docs/bundles/math-run.schema.json';
import type { ArtifactClass, ArtifactKind } from '../../entities/MathArtifact';
import {
  type BundleFileRef,
  bundleDigest,
  bundlePathProblem,
  checkBundleFiles,
  combinedSha256,
  type FileDigest,
  ProblemList,
  readBundleJson,
} from './common';
import { listBatches, listRecords, openValidatedBundle, type RecordPlace, type RecordsFile } from './records';
import { compileBundleSchema, schemaProblems } from './schema';
import { FirstPlaces, UniqueKeys } from './uniqueKeys';

/** Format tag of a math run bundle's manifest; docs/bundles/math-run.md describes it. */
export const MATH_BUNDLE_FORMAT = 'referee.math-run/1';
const MANIFEST = 'manifest.json';

/* The TypeScript view of docs/bundles/math-run.schema.json (the schema is the source of truth). */

export interface MathBundleRun {
  run_id: string;
  title: string;
  source?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
}
export interface MathBundleClient {
  name: string;
  description?: string;
}
export interface MathBundleTopic {
  topic_id: string;
  title: string;
}
export interface MathBundleArtifact {
  artifact_id: string;
  path: string;
  kind: ArtifactKind;
  class: ArtifactClass;
  media_type: string;
  sha256?: string;
  size_bytes?: number;
}
export interface MathBundleReport {
  report_id: string;
  artifact_id: string;
  source_id?: string | null;
}
export interface MathBundleTask {
  task_id: string;
  topic_id: string;
  question_id: string;
  title: string;
  problem: string;
  report_id: string | null;
  /** A client of the bundle's `clients`, linked when the import creates the task (never on re-import). */
  client?: string | null;
}
/** One task's evidence; per task, so tasks sharing a report never see each other's entries. */
export interface MathBundleEvidence {
  task_id: string;
  report_id: string;
  rubric?: Record<string, unknown> | null;
  review?: Record<string, unknown> | null;
  quality_gate?: Record<string, unknown> | null;
}
export interface MathBundleManifest {
  format: typeof MATH_BUNDLE_FORMAT;
  run: MathBundleRun;
  clients?: MathBundleClient[];
  topics: MathBundleTopic[];
  /** Each list inline, or as a JSONL file beside the manifest (`<list>_file`), for runs too large for one document. */
  artifacts?: MathBundleArtifact[];
  artifacts_file?: RecordsFile;
  reports?: MathBundleReport[];
  reports_file?: RecordsFile;
  tasks?: MathBundleTask[];
  tasks_file?: RecordsFile;
  evidence?: MathBundleEvidence[];
  evidence_file?: RecordsFile;
}

/** Largest evidence object (rubric, review or quality gate) as JSON, in characters. */
export const EVIDENCE_OBJECT_MAX_CHARS = 65_536;
export const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const schemas = compileBundleSchema(schema);

export interface MathBundleCounts {
  clients: number;
  topics: number;
  artifacts: number;
  reports: number;
  tasks: number;
  evidence: number;
}

/** A manifest that passed every check but the files'. */
export interface CheckedMathBundle {
  manifest: MathBundleManifest;
  /** SHA-256 of manifest.json, combined with the JSONL record files' when there are any. */
  sha256: string;
  counts: MathBundleCounts;
}

/** A bundle that passed every check, files included. */
export interface ValidatedMathBundle extends CheckedMathBundle {
  /** Every artifact file as hashed, by path (the artifacts themselves are read again: `recordBatches`). */
  files: Map<string, FileDigest>;
  /** The bundle's identity: records and files (see `bundleDigest`). */
  digest: string;
}

/** The lists a manifest may hold inline or name as a JSONL file (`<list>_file`), in the order they are hashed. */
const RECORD_LISTS = ['artifacts', 'reports', 'tasks', 'evidence'] as const;
type RecordList = (typeof RECORD_LISTS)[number];

/**
 * Reads and checks a bundle's manifest and records (schema, unique ids, references); every problem is
 * listed (InvalidBundleError), none is fixed silently. Files are not read: see `validateMathBundle`.
 */
export async function readMathBundle(bundleDir: string): Promise<CheckedMathBundle> {
  const { checked, problems } = await inspect(bundleDir, false);
  problems.throwIfAny();
  return checked as CheckedMathBundle;
}

/** Every check of `readMathBundle`, plus each file's presence, size and SHA-256; returns the digests. */
export async function validateMathBundle(bundleDir: string): Promise<ValidatedMathBundle> {
  const { checked, problems, files, artifactPaths } = await inspect(bundleDir, true);
  problems.throwIfAny();
  const bundle = checked as CheckedMathBundle;
  // One path per artifact (several may name one file): every artifact's path passed its checks.
  return { ...bundle, files, digest: bundleDigest(bundle.sha256, artifactPaths, files) };
}

/** Artifact files are checked this many at a time while the artifacts are read, so no list of them is held. */
const FILE_CHECK_BATCH = 1000;
/** A task's report in the checks' per-task array when it has none, or names one that is not listed. */
const NO_REPORT = -1;
const UNLISTED_REPORT = -2;

async function inspect(bundleDir: string, checkFiles: boolean) {
  const problems = new ProblemList();
  const files = new Map<string, FileDigest>();
  const artifactPaths: string[] = [];
  const read = await readBundleJson(bundleDir, MANIFEST, problems);
  if (!read) return { checked: null, problems, files, artifactPaths };
  const m = read.value as Record<string, unknown>;
  if (!schemas.manifest(m)) problems.items.push(...schemaProblems(schemas.manifest.errors, MANIFEST));
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    return { checked: null, problems, files, artifactPaths };

  const at = (place: RecordPlace, suffix: string, message: string) =>
    problems.at(place.file, `${place.path}${suffix}`, message, place.line);
  // Ids of records that failed their own check: a reference to one is not also reported as unknown.
  const rejected = new Set<string>();
  const reject = (kind: string, idField: string) => (value: unknown) => {
    const id = (value as Record<string, unknown> | null)?.[idField];
    if (typeof id === 'string') rejected.add(`${kind}:${id}`);
  };
  const unknown = (kind: string, id: string, known: boolean) => !known && !rejected.has(`${kind}:${id}`);
  const inline = (key: string, def: string, onRejected: (value: unknown) => void) => {
    const list = Array.isArray(m[key]) ? (m[key] as unknown[]) : [];
    const validate = schemas.def(def);
    // Schema problems of inline records were reported with the manifest; only valid ones are cross-checked.
    return list.flatMap((value, i) => {
      if (validate(value)) return [{ value, place: { file: MANIFEST, path: `$.${key}.${i}` } }];
      onRejected(value);
      return [];
    });
  };

  const topics = new UniqueKeys(problems, 'topic_id');
  for (const { value, place } of inline('topics', 'topic', reject('topic', 'topic_id')))
    topics.add((value as MathBundleTopic).topic_id, place.file, `${place.path}.topic_id`);

  const clients = new UniqueKeys(problems, 'client name (names ignore case)');
  const clientNames = new Set<string>();
  for (const { value, place } of inline('clients', 'client', reject('client', 'name'))) {
    const { name } = value as MathBundleClient;
    clients.add(name.toLowerCase(), place.file, `${place.path}.name`, name);
    clientNames.add(name);
  }

  // Record files are hashed in the order they are read (artifacts, reports, tasks, evidence), as openMathBundle does.
  const recordShas: string[] = [read.sha256];
  const list = (key: RecordList, def: string, onRejected: (value: unknown) => void) =>
    listRecords(bundleDir, MANIFEST, m, key, schemas.def(def), problems, recordShas, onRejected);
  const artifacts = new UniqueKeys(problems, 'artifact_id');
  // By artifact ordinal (artifacts.ordinalOf), as every per-record fact kept below: no second map of the ids.
  const artifactKinds: ArtifactKind[] = [];
  let artifactCount = 0;
  // File problems are listed after every record problem, as when the files were checked last.
  const fileProblems = new ProblemList();
  let unchecked: BundleFileRef[] = [];
  const checkUnchecked = async () => {
    if (checkFiles) await checkBundleFiles(bundleDir, unchecked, fileProblems, files);
    unchecked = [];
  };
  for await (const { value, place } of list('artifacts', 'artifact', reject('artifact', 'artifact_id'))) {
    artifactCount += 1;
    const a = value as MathBundleArtifact;
    if (!artifacts.add(a.artifact_id, place.file, `${place.path}.artifact_id`, a.artifact_id, place.line))
      continue;
    artifactKinds.push(a.kind);
    const pathProblem = bundlePathProblem(a.path);
    if (pathProblem) at(place, '.path', pathProblem);
    else {
      unchecked.push({ path: a.path, sha256: a.sha256, sizeBytes: a.size_bytes, at: place });
      artifactPaths.push(a.path);
      if (unchecked.length === FILE_CHECK_BATCH) await checkUnchecked();
    }
  }
  await checkUnchecked();

  const reports = new UniqueKeys(problems, 'report_id');
  let reportCount = 0;
  for await (const { value, place } of list('reports', 'report', reject('report', 'report_id'))) {
    reportCount += 1;
    const r = value as MathBundleReport;
    reports.add(r.report_id, place.file, `${place.path}.report_id`, r.report_id, place.line);
    const artifact = artifacts.ordinalOf(r.artifact_id);
    const kind = artifact === undefined ? undefined : artifactKinds[artifact];
    if (unknown('artifact', r.artifact_id, kind !== undefined))
      at(place, '.artifact_id', `unknown artifact "${r.artifact_id}"`);
    else if (kind && kind !== 'REPORT')
      at(place, '.artifact_id', `artifact "${r.artifact_id}" is a ${kind}, not a REPORT`);
  }

  const taskIds = new UniqueKeys(problems, 'task_id');
  // Each task's report, by task ordinal: the report's ordinal, NO_REPORT, or UNLISTED_REPORT for an id that is
  // not a listed report (already a problem of the task, or a report rejected by its own check), kept apart.
  const taskReports: number[] = [];
  const unlistedTaskReports = new Map<number, string>();
  const sameReport = (task: number, reportId: string): boolean => {
    const report = taskReports[task];
    if (report === UNLISTED_REPORT) return unlistedTaskReports.get(task) === reportId;
    return report === reports.ordinalOf(reportId);
  };
  let taskCount = 0;
  for await (const { value, place } of list('tasks', 'task', reject('task', 'task_id'))) {
    taskCount += 1;
    const t = value as MathBundleTask;
    if (!taskIds.add(t.task_id, place.file, `${place.path}.task_id`, t.task_id, place.line)) continue;
    const report = t.report_id === null ? NO_REPORT : (reports.ordinalOf(t.report_id) ?? UNLISTED_REPORT);
    if (report === UNLISTED_REPORT) unlistedTaskReports.set(taskReports.length, t.report_id as string);
    taskReports.push(report);
    if (unknown('topic', t.topic_id, topics.has(t.topic_id)))
      at(place, '.topic_id', `unknown topic "${t.topic_id}"`);
    if (t.report_id !== null && unknown('report', t.report_id, reports.has(t.report_id)))
      at(place, '.report_id', `unknown report "${t.report_id}"`);
    if (t.client != null && unknown('client', t.client, clientNames.has(t.client)))
      at(place, '.client', `unknown client "${t.client}" (not in clients)`);
  }

  // Evidence is one per task: kept by task ordinal, and by id only for tasks the bundle does not list.
  const evidenceOfTasks = new FirstPlaces(problems, 'evidence for task');
  const evidenceOfUnlistedTasks = new UniqueKeys(problems, 'evidence for task');
  let evidenceCount = 0;
  for await (const { value, place } of list('evidence', 'evidence', () => undefined)) {
    evidenceCount += 1;
    const e = value as MathBundleEvidence;
    const task = taskIds.ordinalOf(e.task_id);
    const first =
      task === undefined
        ? evidenceOfUnlistedTasks.add(e.task_id, place.file, `${place.path}.task_id`, e.task_id, place.line)
        : evidenceOfTasks.add(task, e.task_id, place.file, `${place.path}.task_id`, place.line);
    if (!first) continue;
    if (unknown('task', e.task_id, task !== undefined)) at(place, '.task_id', `unknown task "${e.task_id}"`);
    else if (task !== undefined && !sameReport(task, e.report_id))
      at(place, '.report_id', `task "${e.task_id}" does not map to report "${e.report_id}"`);
    for (const key of ['rubric', 'review', 'quality_gate'] as const) {
      const json = e[key] ? JSON.stringify(e[key]) : '';
      if (json.length > EVIDENCE_OBJECT_MAX_CHARS)
        at(place, `.${key}`, `must be at most ${EVIDENCE_OBJECT_MAX_CHARS} characters as JSON`);
      else if (json.includes('\\u0000')) at(place, `.${key}`, 'must not contain a NUL character');
    }
  }

  const manifest = m as unknown as MathBundleManifest;
  const checked: CheckedMathBundle = {
    manifest,
    sha256: combinedSha256(recordShas),
    counts: {
      clients: (manifest.clients ?? []).length,
      topics: manifest.topics?.length ?? 0,
      artifacts: artifactCount,
      reports: reportCount,
      tasks: taskCount,
      evidence: evidenceCount,
    },
  };
  problems.items.push(...fileProblems.items);
  return { checked, problems, files, artifactPaths };
}

/**
 * Reads a bundle that was validated before, without checking it again: the manifest, and the SHA-256 its
 * validation recorded (the caller compares them, so a bundle changed since is refused).
 */
export const openMathBundle = (bundleDir: string) =>
  openValidatedBundle(bundleDir, RECORD_LISTS) as Promise<{ manifest: MathBundleManifest; sha256: string }>;

/** A list's records in batches of `size`, inline or streamed from its JSONL file (opened bundles only). */
export const recordBatches = <T>(
  bundleDir: string,
  manifest: MathBundleManifest,
  key: RecordList,
  size: number,
): AsyncGenerator<T[]> => listBatches<T>(bundleDir, manifest, key, size);
