import { getJson } from '../rest';
import type { TaskPage } from './types';

/**
 * The review stream: the queue page the reviewer last looked at (its filters and task ids), so the task page
 * can open the next task after a verdict. Kept in sessionStorage beside the key, one page at a time: the
 * console never loads the whole queue.
 */
interface Stream {
  query: string;
  ids: string[];
  page: number;
  lastPage: number;
}

const STREAM_STORAGE = 'referee.console.stream';

export function rememberStream(query: URLSearchParams, page: TaskPage): void {
  const params = new URLSearchParams(query);
  params.delete('page');
  const stream: Stream = {
    query: params.toString(),
    ids: page.items.map((t) => t.task_id),
    page: page.page,
    lastPage: Math.max(1, Math.ceil(page.total / page.page_size)),
  };
  sessionStorage.setItem(STREAM_STORAGE, JSON.stringify(stream));
}

function readStream(): Stream | null {
  try {
    return JSON.parse(sessionStorage.getItem(STREAM_STORAGE) ?? 'null') as Stream | null;
  } catch {
    return null;
  }
}

/** The queue's URL (with its filters) to go back to. */
export function streamQueuePath(): string {
  const stream = readStream();
  if (!stream) return '/math';
  const params = new URLSearchParams(stream.query);
  if (stream.page > 1) params.set('page', String(stream.page));
  const text = params.toString();
  return text ? `/math?${text}` : '/math';
}

/**
 * The task after `taskId` in the stream: the next id on the remembered page, else, from a fresh read of that
 * page and the next (pages are live: a verdict may have moved tasks), the first unseen task, else the first one
 * still open (not completed, not archived), never `taskId` itself.
 */
export async function nextInStream(taskId: string): Promise<string | null> {
  const stream = readStream();
  if (!stream) return null;
  const at = stream.ids.indexOf(taskId);
  if (at >= 0 && at + 1 < stream.ids.length) return stream.ids[at + 1];
  const base = Object.fromEntries(new URLSearchParams(stream.query));
  for (let page = stream.page; page <= Math.min(stream.lastPage + 1, stream.page + 1); page++) {
    const fresh = await getJson<TaskPage>('/api/math/tasks', { ...base, page });
    const seen = new Set(stream.ids);
    // Unseen tasks first; else one still open (skipped earlier, or above this one in the list).
    const next =
      fresh.items.find((t) => t.task_id !== taskId && !seen.has(t.task_id)) ??
      fresh.items.find((t) => t.task_id !== taskId && !t.archived && t.review_state !== 'COMPLETED');
    if (next) {
      rememberStream(new URLSearchParams(stream.query), fresh);
      return next.task_id;
    }
  }
  return null;
}
