import { putSpooledObject, uploadObjectKeyFor } from '../../../storage/hashingUpload';
import { apiKeyOf } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { validatePart } from '../../kernel/validation';
import { serveVerifiedFile } from '../files/download';
import { acquireTransferSlot } from '../files/transfers';
import { downloadHeaders } from '../files/headers';
import { refusingUnreadBody } from '../files/upload';
import { iso } from '../../shared/schemas';
import { readBugReportForm } from './form';
import { PICTURE_EXTENSIONS, sniffPictureType } from './picture';
import { type BugReportRow, findReadableReport, insertBugReport, latestReadableReports } from './queries';
import {
  BUG_REPORT_LIST_LIMIT,
  bugReportFields,
  bugReportListSchema,
  bugReportParams,
  bugReportReceiptSchema,
} from './schemas';

const presentPicture = (r: BugReportRow) =>
  r.picture_sha256 && r.picture_media_type
    ? { media_type: r.picture_media_type, size_bytes: Number(r.picture_size_bytes), sha256: r.picture_sha256 }
    : null;

const screenshotUrl = (r: BugReportRow) => (r.picture_sha256 ? `/api/bug-reports/${r.id}/screenshot` : null);

export const createBugReport = defineOperation({
  operationId: 'math.createBugReport',
  summary:
    'Submit a bug report (multipart: description, optional page_path, optional picture PNG/JPEG/WebP up to 8 MiB judged by its bytes).',
  method: 'POST',
  path: '/api/bug-reports',
  minRole: 'REVIEWER',
  scopes: ['write', 'files:write'],
  idempotency: 'optional',
  request: { bodyKind: 'multipart' },
  response: { status: 201, schema: bugReportReceiptSchema, description: 'The creation receipt.' },
  errors: [400, 413, 415, 429, 503],
  async handler({ principal, deps, http, idempotent }) {
    return refusingUnreadBody(http, async () => {
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
          return await idempotent(
            { ...fields, picture_sha256: picture?.sha256 ?? null },
            async (transaction) => {
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
              return transaction(async (tx) => {
                const row = await insertBugReport(tx, {
                  memberId: principal.member.id,
                  keyId: apiKeyOf(principal).id,
                  description: fields.description,
                  pagePath: fields.page_path ?? null,
                  picture:
                    picture && objectKey && mediaType
                      ? { mediaType, objectKey, sizeBytes: picture.sizeBytes, sha256: picture.sha256 }
                      : null,
                });
                return {
                  status: 201,
                  body: {
                    report_id: row.id,
                    page_path: row.page_path,
                    picture: presentPicture(row),
                    created_at: row.created_at.toISOString(),
                  },
                };
              });
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
    const rows = await latestReadableReports(deps.dataSource, principal, BUG_REPORT_LIST_LIMIT);
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

export const getBugReportScreenshot = defineOperation({
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
