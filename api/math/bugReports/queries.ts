import type { DataSource } from 'typeorm';
import type { Queryable } from '../../../entities/queryable';
import type { MathBugReport } from '../../../entities/MathBugReport';
import type { RowPick } from '../../../entities/rows';
import type { Principal } from '../../kernel/authenticate';
import type { PictureMediaType } from './picture';

export type BugReportRow = RowPick<
  MathBugReport,
  | 'id'
  | 'member_id'
  | 'description'
  | 'page_path'
  | 'picture_object_key'
  | 'picture_size_bytes'
  | 'picture_sha256'
  | 'created_at'
> & { picture_media_type: PictureMediaType | null };

const BUG_REPORT_COLUMNS = `id::text, member_id::text, description, page_path, picture_media_type,
  picture_object_key, picture_size_bytes::text, picture_sha256, created_at`;

/** Admins see every report; everyone else only their own. */
function ownReports(principal: Principal, params: unknown[]): string {
  if (principal.role === 'ADMIN') return 'TRUE';
  params.push(principal.member.id);
  return `member_id = $${params.length}`;
}

export async function findReadableReport(dataSource: DataSource, principal: Principal, reportId: string) {
  const params: unknown[] = [reportId];
  const rows: BugReportRow[] = await dataSource.query(
    `SELECT ${BUG_REPORT_COLUMNS} FROM math_bug_reports WHERE id = $1 AND ${ownReports(principal, params)}`,
    params,
  );
  return rows[0] ?? null;
}

/** The newest `limit` reports the caller may read. */
export async function latestReadableReports(
  dataSource: DataSource,
  principal: Principal,
  limit: number,
): Promise<BugReportRow[]> {
  const params: unknown[] = [limit];
  return dataSource.query(
    `SELECT ${BUG_REPORT_COLUMNS} FROM math_bug_reports WHERE ${ownReports(principal, params)}
      ORDER BY id DESC LIMIT $1`,
    params,
  );
}

export interface NewBugReport {
  memberId: string;
  keyId: string;
  description: string;
  pagePath: string | null;
  /** The stored picture, when one was sent. */
  picture: { mediaType: PictureMediaType; objectKey: string; sizeBytes: number; sha256: string } | null;
}

export async function insertBugReport(dataSource: Queryable, report: NewBugReport): Promise<BugReportRow> {
  const [row]: BugReportRow[] = await dataSource.query(
    `INSERT INTO math_bug_reports (member_id, key_id, description, page_path, picture_media_type,
       picture_object_key, picture_size_bytes, picture_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${BUG_REPORT_COLUMNS}`,
    [
      report.memberId,
      report.keyId,
      report.description,
      report.pagePath,
      report.picture?.mediaType ?? null,
      report.picture?.objectKey ?? null,
      report.picture?.sizeBytes ?? null,
      report.picture?.sha256 ?? null,
    ],
  );
  return row;
}
