import { withoutFormatCharacters } from '../files/contentDisposition';
import type { AttachmentRow } from './queries';

export const attachmentPath = (taskId: string, attachmentId: string) =>
  `/api/math/tasks/${encodeURIComponent(taskId)}/attachments/${attachmentId}`;

export function presentAttachment(a: AttachmentRow) {
  return {
    attachment_id: a.id,
    task_id: a.task_id,
    // Without format characters, also for a name stored before they were removed at upload.
    filename: a.filename === null ? null : withoutFormatCharacters(a.filename),
    media_type: a.media_type,
    size_bytes: Number(a.size_bytes),
    sha256: a.sha256,
    uploader_id: a.uploader_id,
    created_at: a.created_at.toISOString(),
    download_url: `${attachmentPath(a.task_id, a.id)}/download`,
  };
}
