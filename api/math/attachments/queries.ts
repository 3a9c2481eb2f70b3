import type { DataSource, EntityManager } from 'typeorm';
import { MathAttachment } from '../../../entities/MathAttachment';
import { apiKeyOf, type Principal } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { visibleTasks } from '../visibility';
import { ACTIVE_ATTACHMENTS_PER_TASK } from './schemas';
import { mathProblems } from '../problems';

export interface AttachmentRow {
  id: string;
  task_id: string;
  uploader_id: string;
  filename: string | null;
  media_type: string;
  object_key: string;
  size_bytes: string;
  sha256: string;
  created_at: Date;
}

const ATTACHMENT_COLUMNS = `id::text, task_id, uploader_id::text, filename, media_type, object_key,
  size_bytes::text, sha256, created_at`;

export async function activeAttachmentCount(dataSource: DataSource | EntityManager, taskId: string) {
  const [row]: Array<{ n: number }> = await dataSource.query(
    'SELECT count(*)::int AS n FROM math_attachments WHERE task_id = $1 AND deleted_at IS NULL',
    [taskId],
  );
  return row.n;
}

export async function listActiveAttachments(
  dataSource: DataSource,
  taskId: string,
): Promise<AttachmentRow[]> {
  return dataSource.query(
    `SELECT ${ATTACHMENT_COLUMNS} FROM math_attachments
      WHERE task_id = $1 AND deleted_at IS NULL ORDER BY id DESC LIMIT $2`,
    [taskId, ACTIVE_ATTACHMENTS_PER_TASK],
  );
}

/** An active attachment of the task, or 404 (a removed one is gone for the API). */
export async function findActiveAttachment(
  dataSource: DataSource | EntityManager,
  taskId: string,
  attachmentId: string,
): Promise<AttachmentRow> {
  const rows: AttachmentRow[] = await dataSource.query(
    `SELECT ${ATTACHMENT_COLUMNS} FROM math_attachments WHERE id = $1 AND task_id = $2 AND deleted_at IS NULL`,
    [attachmentId, taskId],
  );
  if (!rows[0]) throw problems.notFound(`Attachment ${attachmentId} of task ${taskId}`);
  return rows[0];
}

export const archivedTaskRefusal = (taskId: string) =>
  mathProblems.conflict(
    'task_archived',
    `Task ${taskId} is archived and read-only; restore it before changing its attachments.`,
  );

/**
 * Locks the task row for the rest of the transaction and checks again what the request was admitted on:
 * the caller still sees the task and it is not archived. Uploads and removals of one task serialise here.
 */
export async function lockWritableTask(
  tx: EntityManager,
  principal: Principal,
  taskId: string,
): Promise<void> {
  const params: unknown[] = [taskId];
  const visible = visibleTasks(principal, 't', params);
  const rows: Array<{ archived: boolean }> = await tx.query(
    `SELECT t.archived FROM math_tasks t WHERE t.task_id = $1 AND ${visible} FOR UPDATE`,
    params,
  );
  if (!rows[0]) throw problems.notFound(`Task ${taskId}`);
  if (rows[0].archived) throw archivedTaskRefusal(taskId);
}

export const attachmentLimitRefusal = (taskId: string) =>
  mathProblems.conflict(
    'attachment_limit_reached',
    `Task ${taskId} already has ${ACTIVE_ATTACHMENTS_PER_TASK} active attachments; remove one first.`,
    { limit: ACTIVE_ATTACHMENTS_PER_TASK },
  );

export async function insertAttachment(
  tx: EntityManager,
  values: {
    taskId: string;
    principal: Principal;
    filename: string | null;
    mediaType: string;
    objectKey: string;
    sizeBytes: number;
    sha256: string;
  },
): Promise<AttachmentRow> {
  const [row]: AttachmentRow[] = await tx.query(
    `INSERT INTO math_attachments (task_id, uploader_id, uploader_key_id, filename, media_type, object_key,
       size_bytes, sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ATTACHMENT_COLUMNS}`,
    [
      values.taskId,
      values.principal.member.id,
      apiKeyOf(values.principal).id,
      values.filename,
      values.mediaType,
      values.objectKey,
      values.sizeBytes,
      values.sha256,
    ],
  );
  return row;
}

/** Soft delete: the row stays as the audit of who removed it and when. */
export async function markAttachmentDeleted(tx: EntityManager, attachmentId: string, memberId: string) {
  await tx
    .getRepository(MathAttachment)
    .update(attachmentId, { deletedAt: () => 'now()', deletedBy: memberId });
}
