import { putSpooledObject, uploadObjectKeyFor } from '../../../storage/hashingUpload';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { serveVerifiedFile } from '../files/download';
import { downloadHeaders } from '../files/headers';
import { acquireTransferSlot } from '../files/transfers';
import { checkDeclaredLength, refusingUnreadBody, spoolRequestBody } from '../files/upload';
import { findVisibleTask } from '../tasks/queries';
import { taskParams } from '../tasks/schemas';
import { attachmentPath, presentAttachment } from './presenters';
import {
  activeAttachmentCount,
  archivedTaskRefusal,
  attachmentLimitRefusal,
  findActiveAttachment,
  insertAttachment,
  listActiveAttachments,
  lockWritableTask,
  markAttachmentDeleted,
} from './queries';
import {
  ACTIVE_ATTACHMENTS_PER_TASK,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MEDIA_TYPE,
  attachmentListSchema,
  attachmentParams,
  attachmentSchema,
  uploadHeaders,
} from './schemas';

export const listAttachments = defineOperation({
  operationId: 'math.listAttachments',
  summary: 'Up to 200 active attachments of a task, newest first.',
  method: 'GET',
  path: '/api/math/tasks/:task_id/attachments',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: taskParams },
  response: { status: 200, schema: attachmentListSchema, description: 'The active attachments.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    const rows = await listActiveAttachments(deps.dataSource, task.task_id);
    return { body: { task_id: task.task_id, attachments: rows.map(presentAttachment) } };
  },
});

export const uploadAttachment = defineOperation({
  operationId: 'math.uploadAttachment',
  summary:
    'Upload a supplementary file as raw bytes (application/octet-stream, 1 byte to 16 MiB); optional X-Filename (percent-encoded UTF-8) and Idempotency-Key.',
  method: 'POST',
  path: '/api/math/tasks/:task_id/attachments',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:write'],
  idempotency: 'optional',
  request: { params: taskParams, headers: uploadHeaders, bodyKind: 'octet-stream' },
  response: { status: 201, schema: attachmentSchema, description: 'The stored attachment’s receipt.' },
  errors: [400, 404, 409, 413, 415, 429, 503],
  async handler({ params, headers, principal, deps, http, idempotent }) {
    return refusingUnreadBody(http, async () => {
      if (http.mediaType !== ATTACHMENT_MEDIA_TYPE)
        throw problems.unsupportedMediaType(ATTACHMENT_MEDIA_TYPE);
      checkDeclaredLength(http, ATTACHMENT_MAX_BYTES);
      const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
      if (task.archived) throw archivedTaskRefusal(task.task_id);
      if ((await activeAttachmentCount(deps.dataSource, task.task_id)) >= ACTIVE_ATTACHMENTS_PER_TASK)
        throw attachmentLimitRefusal(task.task_id);

      const slot = await acquireTransferSlot(deps, principal, 'upload', 'math.uploadAttachment');
      try {
        const spooled = await spoolRequestBody(http, ATTACHMENT_MAX_BYTES);
        try {
          const filename = headers['x-filename'] ?? null;
          return await idempotent(
            { sha256: spooled.sha256, size_bytes: spooled.sizeBytes, filename },
            async (transaction) => {
              const objectKey = uploadObjectKeyFor(spooled.sha256);
              await putSpooledObject(deps.s3, deps.config.s3.bucket, spooled, {
                key: objectKey,
                contentType: ATTACHMENT_MEDIA_TYPE,
              }).catch((error: unknown) => {
                deps.logger.warn({ err: error }, 'storing an attachment in S3 failed');
                throw problems.unavailable('object storage');
              });
              return transaction(async (tx) => {
                await lockWritableTask(tx, principal, task.task_id);
                if ((await activeAttachmentCount(tx, task.task_id)) >= ACTIVE_ATTACHMENTS_PER_TASK)
                  throw attachmentLimitRefusal(task.task_id);
                const row = await insertAttachment(tx, {
                  taskId: task.task_id,
                  principal,
                  filename,
                  mediaType: ATTACHMENT_MEDIA_TYPE,
                  objectKey,
                  sizeBytes: spooled.sizeBytes,
                  sha256: spooled.sha256,
                });
                return {
                  status: 201,
                  body: presentAttachment(row),
                  headers: { Location: attachmentPath(row.task_id, row.id) },
                };
              });
            },
          );
        } finally {
          await spooled.dispose();
        }
      } finally {
        await slot.release();
      }
    });
  },
});

export const getAttachment = defineOperation({
  operationId: 'math.getAttachment',
  summary: 'Metadata of an active attachment.',
  method: 'GET',
  path: '/api/math/tasks/:task_id/attachments/:attachment_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: attachmentParams },
  response: { status: 200, schema: attachmentSchema, description: 'The attachment.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    return {
      body: presentAttachment(
        await findActiveAttachment(deps.dataSource, task.task_id, params.attachment_id),
      ),
    };
  },
});

export const removeAttachment = defineOperation({
  operationId: 'math.removeAttachment',
  summary:
    'Hide an attachment (its bytes are kept). Reviewers remove only their own uploads while assigned; archived tasks must be restored first.',
  method: 'DELETE',
  path: '/api/math/tasks/:task_id/attachments/:attachment_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:write'],
  idempotency: 'none',
  request: { params: attachmentParams },
  response: { status: 204, description: 'Removed.' },
  errors: [403, 404, 409],
  async handler({ params, principal, deps }) {
    await deps.dataSource.transaction(async (tx) => {
      await lockWritableTask(tx, principal, params.task_id);
      const attachment = await findActiveAttachment(tx, params.task_id, params.attachment_id);
      if (principal.role === 'REVIEWER' && attachment.uploader_id !== principal.member.id)
        throw problems.forbidden('Reviewers may remove only attachments they uploaded.');
      await markAttachmentDeleted(tx, attachment.id, principal.member.id);
    });
    return { status: 204 };
  },
});

export const downloadAttachment = defineOperation({
  operationId: 'math.downloadAttachment',
  summary: 'Download an attachment after task access is rechecked and its bytes match the stored receipt.',
  method: 'GET',
  path: '/api/math/tasks/:task_id/attachments/:attachment_id/download',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['files:read'],
  idempotency: 'none',
  request: { params: attachmentParams, headers: downloadHeaders },
  response: {
    status: 200,
    contentType: ATTACHMENT_MEDIA_TYPE,
    description: 'The verified bytes, with length, ETag (SHA-256) and file name.',
  },
  errors: [404, 429, 502, 503],
  async handler({ params, headers, principal, deps, http }) {
    const task = await findVisibleTask(deps.dataSource, principal, params.task_id);
    const attachment = await findActiveAttachment(deps.dataSource, task.task_id, params.attachment_id);
    return serveVerifiedFile(
      {
        deps,
        principal,
        http,
        ifNoneMatch: headers['if-none-match'],
        operationId: 'math.downloadAttachment',
      },
      {
        subjectType: 'attachment',
        subjectId: attachment.id,
        label: `Attachment ${attachment.id} of task ${task.task_id}`,
        objectKey: attachment.object_key,
        sizeBytes: Number(attachment.size_bytes),
        sha256: attachment.sha256,
        mediaType: attachment.media_type,
        filename: attachment.filename ?? `attachment-${attachment.id}`,
      },
    );
  },
});

export const attachmentOperations = [
  listAttachments,
  uploadAttachment,
  getAttachment,
  removeAttachment,
  downloadAttachment,
];
