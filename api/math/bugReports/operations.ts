import type { DataSource } from 'typeorm';
import { putSpooledObject, uploadObjectKeyFor } from '../../../storage/hashingUpload';
import { apiKeyOf, type Principal } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { validatePart } from '../../kernel/validation';
import { serveVerifiedFile } from '../files/download';
import { acquireTransferSlot } from '../files/transfers';
import {
  type DownloadHeaders,
  downloadHeaders,
  type UploadIdempotencyHeaders,
  uploadIdempotencyHeaders,
} from '../files/headers';
import { refusingUnreadBody, storeIdempotently } from '../files/upload';
import { iso } from '../../shared/schemas';
import { readBugReportForm } from './form';
import { PICTURE_EXTENSIONS, type PictureMediaType, sniffPictureType } from './picture';
import {
  BUG_REPORT_LIST_LIMIT,
  type BugReportParams,
  bugReportFields,
  bugReportListSchema,
  bugReportParams,
  bugReportReceiptSchema,
} from './schemas';

interface BugReportRow {
  id: string;
  member_id: string;
  description: string;
  page_path: string | null;
  picture_media_type: PictureMediaType | null;
  picture_object_key: string | null;
  picture_size_bytes: string | null;
  picture_sha256: string | null;
  created_at: Date;
}

const BUG_REPORT_COLUMNS = `id::text, member_id::text, description, page_path, picture_media_type,
  picture_object_key, picture_size_bytes::text, picture_sha256, created_at`;

const presentPicture = (r: BugReportRow) =>
  r.picture_sha256 && r.picture_media_type
    ? { media_type: r.picture_media_type, size_bytes: Number(r.picture_size_bytes), sha256: r.picture_sha256 }
    : null;

const screenshotUrl = (r: BugReportRow) => (r.picture_sha256 ? `/api/bug-reports/${r.id}/screenshot` : null);

/** Admins see every report; everyone else only their own. */
function ownReports(principal: Principal, params: unknown[]): string {
  if (principal.role === 'ADMIN') return 'TRUE';
  params.push(principal.member.id);
  return `member_id = $${params.length}`;
}

async function findReadableReport(dataSource: DataSource, principal: Principal, reportId: string) {
  const params: unknown[] = [reportId];
  const rows: BugReportRow[] = await dataSource.query(
    `SELECT ${BUG_REPORT_COLUMNS} FROM math_bug_reports WHERE id = $1 AND ${ownReports(principal, params)}`,
    params,
  );
  return rows[0] ?? null;
}

export const createBugReport = defineOperation<
  Record<string, never>,
  Record<string, never>,
  undefined,
  UploadIdempotencyHeaders
>({
  operationId: 'math.createBugReport',
  summary:
    'Submit a bug report (multipart: description, optional page_path, optional picture PNG/JPEG/WebP up to 8 MiB judged by its bytes).',
  method: 'POST',
  path: '/api/bug-reports',
  minRole: 'REVIEWER',
  scopes: ['write', 'files:write'],
  idempotency: 'none',
  request: { headers: uploadIdempotencyHeaders, bodyKind: 'multipart' },
  response: { status: 201, schema: bugReportReceiptSchema, description: 'The creation receipt.' },
  errors: [400, 413, 415, 429, 503],
  async handler({ headers, principal, deps, http }) {
    return refusingUnreadBody(http, async () => {
      const idempotencyKey = headers['idempotency-key'] ?? null;
      const slot = await acquireTransferSlot(deps, principal, 'upload', 'math.createBugReport');
      try {
        const form = await readBugReportForm(http);
        try {
          const fields = validatePart('body', bugReportFields, form.fields);
          const picture = form.picture;
          const mediaType = picture ? sniffPictureType(picture.head) : null;
          if (picture && !mediaType)
            throw problems.unsupportedMediaType(
              'multipart/form-data whose `picture` is a PNG, JPEG or WebP image (judged by its bytes)',
            );
          return await storeIdempotently(
            deps,
            principal,
            {
              key: idempotencyKey,
              operationId: 'math.createBugReport',
              method: 'POST',
              path: http.path,
              identity: { ...fields, picture_sha256: picture?.sha256 ?? null },
            },
            async () => {
              const objectKey = picture ? uploadObjectKeyFor(picture.sha256) : null;
              if (picture && objectKey && mediaType) {
                await putSpooledObject(deps.s3, deps.config.s3.bucket, picture, {
                  key: objectKey,
                  contentType: mediaType,
                }).catch((error: unknown) => {
                  deps.logger.warn({ err: error }, 'storing a bug-report picture in S3 failed');
                  throw problems.unavailable('object storage');
                });
              }
              const [row]: BugReportRow[] = await deps.dataSource.query(
                `INSERT INTO math_bug_reports (member_id, key_id, description, page_path, picture_media_type,
                   picture_object_key, picture_size_bytes, picture_sha256)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${BUG_REPORT_COLUMNS}`,
                [
                  principal.member.id,
                  apiKeyOf(principal).id,
                  fields.description,
                  fields.page_path ?? null,
                  mediaType,
                  objectKey,
                  picture?.sizeBytes ?? null,
                  picture?.sha256 ?? null,
                ],
              );
              return {
                status: 201,
                body: {
                  report_id: row.id,
                  page_path: row.page_path,
                  picture: presentPicture(row),
                  created_at: row.created_at.toISOString(),
                },
              };
            },
          );
        } finally {
          await form.picture?.dispose();
        }
      } finally {
        await slot.release();
      }
    });
  },
});

export const listBugReports = defineOperation({
  operationId: 'math.listBugReports',
  summary: 'The latest 50 bug reports: Reviewers and Owners see their own, Admins all; with screenshot URLs.',
  method: 'GET',
  path: '/api/bug-reports',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: bugReportListSchema, description: 'Bug reports, newest first.' },
  async handler({ principal, deps }) {
    const params: unknown[] = [BUG_REPORT_LIST_LIMIT];
    const rows: BugReportRow[] = await deps.dataSource.query(
      `SELECT ${BUG_REPORT_COLUMNS} FROM math_bug_reports WHERE ${ownReports(principal, params)}
        ORDER BY id DESC LIMIT $1`,
      params,
    );
    return {
      body: {
        bug_reports: rows.map((r) => ({
          report_id: r.id,
          submitter_id: r.member_id,
          description: r.description,
          page_path: r.page_path,
          picture: presentPicture(r),
          screenshot_url: screenshotUrl(r),
          created_at: iso(r.created_at),
        })),
      },
    };
  },
});

export const getBugReportScreenshot = defineOperation<
  BugReportParams,
  Record<string, never>,
  undefined,
  DownloadHeaders
>({
  operationId: 'math.getBugReportScreenshot',
  summary: 'The verified screenshot of a bug report, for its submitter or an Admin only.',
  method: 'GET',
  path: '/api/bug-reports/:report_id/screenshot',
  minRole: 'REVIEWER',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: bugReportParams, headers: downloadHeaders },
  response: {
    status: 200,
    contentType: 'image/png',
    description: 'The verified picture (PNG, JPEG or WebP), with length, ETag (SHA-256) and file name.',
  },
  errors: [404, 429, 502, 503],
  async handler({ params, headers, principal, deps, http }) {
    const report = await findReadableReport(deps.dataSource, principal, params.report_id);
    if (!report?.picture_object_key || !report.picture_media_type || !report.picture_sha256)
      throw problems.notFound(`A screenshot of bug report ${params.report_id}`);
    return serveVerifiedFile(
      {
        deps,
        principal,
        http,
        ifNoneMatch: headers['if-none-match'],
        operationId: 'math.getBugReportScreenshot',
      },
      {
        subjectType: 'bug_report_picture',
        subjectId: report.id,
        label: `The screenshot of bug report ${report.id}`,
        objectKey: report.picture_object_key,
        sizeBytes: Number(report.picture_size_bytes),
        sha256: report.picture_sha256,
        mediaType: report.picture_media_type,
        filename: `bug-report-${report.id}.${PICTURE_EXTENSIONS[report.picture_media_type]}`,
      },
    );
  },
});

export const bugReportOperations = [createBugReport, listBugReports, getBugReportScreenshot];
