import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, normalize, isAbsolute } from 'node:path';
import Joi from 'joi';
import {
  ARTIFACT_CLASSES,
  ARTIFACT_KINDS,
  type ArtifactClass,
  type ArtifactKind,
} from '../../entities/MathArtifact';

/** Format tag of a math run bundle's manifest; docs/bundles/math-run.md describes it. */
export const MATH_BUNDLE_FORMAT = 'referee.math-run/1';

export interface MathBundleManifest {
  format: typeof MATH_BUNDLE_FORMAT;
  run: {
    run_id: string;
    title: string;
    source?: string | null;
    started_at?: string | null;
    completed_at?: string | null;
  };
  topics: Array<{ topic_id: string; title: string }>;
  artifacts: Array<{
    artifact_id: string;
    path: string;
    kind: ArtifactKind;
    class: ArtifactClass;
    media_type: string;
    sha256?: string;
  }>;
  reports: Array<{ report_id: string; artifact_id: string; source_id?: string | null }>;
  tasks: Array<{
    task_id: string;
    topic_id: string;
    question_id: string;
    title: string;
    problem: string;
    report_id: string | null;
  }>;
  /** Optional per-task evidence of the report each task maps to (rubric, review, quality gate). */
  evidence?: Array<MathBundleEvidence>;
}

/** One task's evidence; per task, so tasks sharing a report never see each other's entries. */
export interface MathBundleEvidence {
  task_id: string;
  report_id: string;
  rubric?: Record<string, unknown> | null;
  review?: Record<string, unknown> | null;
  quality_gate?: Record<string, unknown> | null;
}

/** Largest evidence object (rubric, review or quality gate) as JSON, in characters. */
export const EVIDENCE_OBJECT_MAX_CHARS = 65_536;
const evidenceObject = () =>
  Joi.object()
    .allow(null)
    .custom((value: unknown, helpers) =>
      JSON.stringify(value).length > EVIDENCE_OBJECT_MAX_CHARS
        ? helpers.message({
            custom: `{{#label}} must be at most ${EVIDENCE_OBJECT_MAX_CHARS} characters as JSON`,
          })
        : value,
    );

export const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const id = () => Joi.string().pattern(BUSINESS_ID);

const manifestSchema = Joi.object<MathBundleManifest>({
  format: Joi.string().valid(MATH_BUNDLE_FORMAT).required(),
  run: Joi.object({
    run_id: id().required(),
    title: Joi.string().max(500).required(),
    source: Joi.string().max(2000).allow(null),
    started_at: Joi.string().isoDate().allow(null),
    completed_at: Joi.string().isoDate().allow(null),
  }).required(),
  topics: Joi.array()
    .items(Joi.object({ topic_id: id().required(), title: Joi.string().max(500).required() }))
    .unique('topic_id')
    .required(),
  artifacts: Joi.array()
    .items(
      Joi.object({
        artifact_id: id().required(),
        path: Joi.string().max(1024).required(),
        kind: Joi.string()
          .valid(...ARTIFACT_KINDS)
          .required(),
        class: Joi.string()
          .valid(...ARTIFACT_CLASSES)
          .required(),
        media_type: Joi.string().max(200).required(),
        sha256: Joi.string().pattern(/^[0-9a-f]{64}$/),
      }),
    )
    .unique('artifact_id')
    .required(),
  reports: Joi.array()
    .items(
      Joi.object({
        report_id: id().required(),
        artifact_id: id().required(),
        source_id: Joi.string().allow(null),
      }),
    )
    .unique('report_id')
    .required(),
  tasks: Joi.array()
    .items(
      Joi.object({
        task_id: id().required(),
        topic_id: id().required(),
        question_id: id().required(),
        title: Joi.string().max(500).required(),
        problem: Joi.string().max(200_000).allow('').required(),
        report_id: id().allow(null).required(),
      }),
    )
    .unique('task_id')
    .required(),
  evidence: Joi.array()
    .items(
      Joi.object({
        task_id: id().required(),
        report_id: id().required(),
        rubric: evidenceObject(),
        review: evidenceObject(),
        quality_gate: evidenceObject(),
      }),
    )
    .unique('task_id'),
});

export interface BundleProblem {
  file: string;
  path: string;
  message: string;
}

export class InvalidBundleError extends Error {
  constructor(readonly problems: BundleProblem[]) {
    super(`Invalid bundle:\n${problems.map((p) => `  ${p.file} ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'InvalidBundleError';
  }
}

/** Reads and checks a bundle's manifest; every problem is listed, none is fixed silently. */
export async function readMathBundle(
  bundleDir: string,
): Promise<{ manifest: MathBundleManifest; sha256: string }> {
  const raw = await readFile(join(bundleDir, 'manifest.json'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new InvalidBundleError([{ file: 'manifest.json', path: '$', message: (error as Error).message }]);
  }
  const { value, error } = manifestSchema.validate(parsed, { abortEarly: false });
  const problems: BundleProblem[] = (error?.details ?? []).map((d) => ({
    file: 'manifest.json',
    path: ['$', ...d.path].join('.'),
    message: d.message,
  }));
  if (!error) problems.push(...crossReferenceProblems(value));
  if (problems.length > 0) throw new InvalidBundleError(problems);
  return { manifest: value, sha256: createHash('sha256').update(raw).digest('hex') };
}

function crossReferenceProblems(m: MathBundleManifest): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const at = (path: string, message: string) => problems.push({ file: 'manifest.json', path, message });
  const topics = new Set(m.topics.map((t) => t.topic_id));
  const artifacts = new Set(m.artifacts.map((a) => a.artifact_id));
  const reports = new Set(m.reports.map((r) => r.report_id));
  m.artifacts.forEach((a, i) => {
    const p = normalize(a.path);
    if (isAbsolute(p) || p.startsWith('..'))
      at(`$.artifacts.${i}.path`, 'must be a relative path inside the bundle');
  });
  m.reports.forEach((r, i) => {
    if (!artifacts.has(r.artifact_id))
      at(`$.reports.${i}.artifact_id`, `unknown artifact "${r.artifact_id}"`);
  });
  m.tasks.forEach((t, i) => {
    if (!topics.has(t.topic_id)) at(`$.tasks.${i}.topic_id`, `unknown topic "${t.topic_id}"`);
    if (t.report_id !== null && !reports.has(t.report_id))
      at(`$.tasks.${i}.report_id`, `unknown report "${t.report_id}"`);
  });
  const taskReports = new Map(m.tasks.map((t) => [t.task_id, t.report_id]));
  (m.evidence ?? []).forEach((e, i) => {
    if (!taskReports.has(e.task_id)) at(`$.evidence.${i}.task_id`, `unknown task "${e.task_id}"`);
    else if (taskReports.get(e.task_id) !== e.report_id)
      at(`$.evidence.${i}.report_id`, `task "${e.task_id}" does not map to report "${e.report_id}"`);
  });
  return problems;
}
