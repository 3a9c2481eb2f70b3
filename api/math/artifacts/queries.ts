import type { DataSource } from 'typeorm';
import type { ArtifactClass, ArtifactKind } from '../../../entities/MathArtifact';
import type { Principal } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import type { LeaseInStatement } from '../files/transfers';
import { visibleTasks } from '../visibility';

export interface ArtifactRow {
  artifact_id: string;
  run_id: string;
  kind: ArtifactKind;
  class: ArtifactClass;
  source_path: string;
  filename: string;
  media_type: string;
  object_key: string;
  size_bytes: string;
  sha256: string;
}

export interface ReportPathRow extends ArtifactRow {
  report_id: string;
  source_id: string | null;
}

export interface RunPathRow extends ArtifactRow {
  reports: Array<{ report_id: string; source_id: string | null }>;
}

const ARTIFACT_COLUMNS = `a.artifact_id, a.run_id, a.kind, a.class, a.source_path, a.filename, a.media_type,
  a.object_key, a.size_bytes::text, a.sha256`;

/** Only STANDARD artifacts are ever listed or served; PRIVATE and PROVENANCE ones do not exist for the API. */
const PERMITTED = `a.class = 'STANDARD'`;

/**
 * How a Reviewer stands towards a report file: they may read it only when every task mapped to it (through
 * any report row pointing at the artifact) is assigned to them.
 */
export type ReviewerReportAccess = 'allowed' | 'not_assigned' | 'shared_with_others';

export async function reviewerReportAccess(
  dataSource: DataSource,
  principal: Principal,
  artifactId: string,
): Promise<ReviewerReportAccess> {
  const params: unknown[] = [artifactId];
  const visible = visibleTasks(principal, 't', params);
  const [row]: Array<{ total: number; mine: number }> = await dataSource.query(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE ${visible})::int AS mine
       FROM math_tasks t JOIN math_reports r ON r.report_id = t.report_id
      WHERE r.artifact_id = $1`,
    params,
  );
  if (row.mine === 0) return 'not_assigned';
  return row.mine === row.total ? 'allowed' : 'shared_with_others';
}

export const sharedReportRefusal = (what: string) =>
  problems.forbidden(
    `${what} is a report shared with tasks that are not assigned to you; a Reviewer may read a shared report only when assigned to every task that shares it.`,
  );

/**
 * An artifact the caller may download, or 404 (403 for a Reviewer short of some tasks sharing the report). With a
 * `lease`, the same statement takes the download's transfer slot (`lease_taken`), given back if the caller is
 * refused after it, so a permitted download costs one round trip before its bytes.
 */
export async function findDownloadableArtifact(
  dataSource: DataSource,
  principal: Principal,
  artifactId: string,
  lease?: LeaseInStatement,
): Promise<ArtifactRow & { lease_taken?: boolean }> {
  const [artifact]: Array<ArtifactRow & { lease_taken?: boolean }> = await dataSource.query(
    `SELECT ${ARTIFACT_COLUMNS}${lease ? `, ${lease.call(2)} AS lease_taken` : ''}
       FROM math_artifacts a WHERE a.artifact_id = $1 AND ${PERMITTED}`,
    [artifactId, ...(lease?.params ?? [])],
  );
  // Built only when refused: an error captures a stack trace, which a permitted download never needs.
  const notFound = () => problems.notFound(`Artifact ${artifactId}`);
  if (!artifact) throw notFound();
  if (principal.role !== 'REVIEWER') return artifact;
  const refused = async (problem: Error) => {
    if (artifact.lease_taken) await lease?.release();
    return problem;
  };
  if (artifact.kind !== 'REPORT') throw await refused(notFound());
  const access = await reviewerReportAccess(dataSource, principal, artifactId).catch(async (error: Error) => {
    throw await refused(error);
  });
  if (access === 'not_assigned') throw await refused(notFound());
  if (access === 'shared_with_others') throw await refused(sharedReportRefusal(`Artifact ${artifactId}`));
  return artifact;
}

/** The permitted report file a task maps to, or null (no mapping, or the file is not permitted). */
export async function findTaskReportPath(
  dataSource: DataSource,
  reportId: string,
): Promise<ReportPathRow | null> {
  const rows: ReportPathRow[] = await dataSource.query(
    `SELECT r.report_id, r.source_id, ${ARTIFACT_COLUMNS}
       FROM math_reports r JOIN math_artifacts a ON a.artifact_id = r.artifact_id
      WHERE r.report_id = $1 AND ${PERMITTED}`,
    [reportId],
  );
  return rows[0] ?? null;
}

/** Every permitted file of a run, with the reports that point at it, in path order. */
export async function listRunPaths(dataSource: DataSource, runId: string): Promise<RunPathRow[]> {
  return dataSource.query(
    `SELECT ${ARTIFACT_COLUMNS},
            COALESCE(json_agg(json_build_object('report_id', r.report_id, 'source_id', r.source_id)
                       ORDER BY r.report_id) FILTER (WHERE r.report_id IS NOT NULL), '[]'::json) AS reports
       FROM math_artifacts a LEFT JOIN math_reports r ON r.artifact_id = a.artifact_id
      WHERE a.run_id = $1 AND ${PERMITTED}
      GROUP BY a.artifact_id
      ORDER BY a.source_path, a.artifact_id`,
    [runId],
  );
}
