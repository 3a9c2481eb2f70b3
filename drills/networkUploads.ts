import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { Caller } from '../bench/dataset';
import { type Attempt, REQUEST_GIVE_UP_MS } from './chaosLoad';

/** Deadline of one upload attempt, as the load's (drills/chaosLoad.ts). */
const ATTEMPT_TIMEOUT_MS = 60_000;

/** What the check found: the ids ({@link uploadId}) of the uploads lost or stored twice. */
export interface UploadCheck {
  lost: string[];
  duplicated: string[];
  findings: string[];
}

/** An upload's id in the drill's accounting, beside the update ids of the changes. */
export const uploadId = (upload: { filename: string }) => `upload:${upload.filename}`;

/** An upload the API acknowledged (201): its file name is its own, so the check can find it. */
interface Uploaded {
  taskId: string;
  filename: string;
  sha256: string;
  at: number;
}

/**
 * Attachment uploads beside the load, so the S3 partition meets uploads as well as downloads: one after another
 * on the load's tasks, each with an Idempotency-Key and retried like every request of the load (a 503 after its
 * Retry-After, a lost connection after half a second) until answered. Each attempt is reported to `onAttempt`
 * under the request number `nextRequest` gives.
 */
export class Uploads {
  readonly uploaded: Uploaded[] = [];
  gaveUp = 0;
  rejected = 0;

  constructor(
    private readonly apiUrl: string,
    private readonly caller: Caller,
    private readonly nextRequest: () => number,
    private readonly onAttempt: (attempt: Attempt) => void,
  ) {}

  async loop(tasks: readonly string[], deadline: number): Promise<void> {
    for (let n = 0; Date.now() < deadline; n += 1) {
      await this.upload(tasks[n % tasks.length], n);
      await sleep(1000);
    }
  }

  private async upload(taskId: string, n: number): Promise<void> {
    const bytes = randomBytes(2048 + (n % 7) * 1024);
    const filename = `net-${n}-${randomUUID().slice(0, 8)}.bin`;
    const headers = {
      authorization: `Bearer ${this.caller.token}`,
      'content-type': 'application/octet-stream',
      'idempotency-key': `net-upload-${randomUUID()}`,
      'x-filename': filename,
    };
    const request = this.nextRequest();
    const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
    for (;;) {
      const startedAt = Date.now();
      let status = 0;
      let retryAfter = false;
      try {
        const response = await fetch(`${this.apiUrl}/api/math/tasks/${taskId}/attachments`, {
          method: 'POST',
          headers,
          body: bytes,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        status = response.status;
        retryAfter = response.headers.get('retry-after') !== null;
      } catch {
        // the connection died or the attempt's deadline passed: retried below
      }
      this.onAttempt({ request, kind: 'upload', startedAt, endedAt: Date.now(), status, retryAfter });
      if (status === 201 || status === 200) {
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        this.uploaded.push({ taskId, filename, sha256, at: Date.now() });
        return;
      }
      if (status >= 400 && status < 500 && !(status === 409 && retryAfter) && status !== 429) {
        this.rejected += 1;
        return;
      }
      if (Date.now() > giveUpAt) {
        this.gaveUp += 1;
        return;
      }
      await sleep(status === 0 ? 500 : 1000);
    }
  }

  /** Every acknowledged upload is there exactly once, with its bytes' digest: the lost and the doubled. */
  async check(dataSource: DataSource): Promise<UploadCheck> {
    const result: UploadCheck = { lost: [], duplicated: [], findings: [] };
    for (const upload of this.uploaded) {
      const rows: Array<{ sha256: string }> = await dataSource.query(
        'SELECT sha256 FROM math_attachments WHERE task_id = $1 AND filename = $2 AND deleted_at IS NULL',
        [upload.taskId, upload.filename],
      );
      if (rows.length === 0 || rows[0].sha256 !== upload.sha256) {
        result.lost.push(uploadId(upload));
        result.findings.push(`lost: upload ${upload.filename} on ${upload.taskId} (${rows.length} rows)`);
      } else if (rows.length > 1) {
        result.duplicated.push(uploadId(upload));
        result.findings.push(
          `duplicated: upload ${upload.filename} on ${upload.taskId} (${rows.length} rows)`,
        );
      }
    }
    return result;
  }
}
