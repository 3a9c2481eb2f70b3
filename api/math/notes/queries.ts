import type { DataSource } from 'typeorm';
import { limitOffset, type PageQuery } from '../shared/pagination';

export interface NoteRow {
  id: string;
  version: number;
  action: string;
  actor_id: string | null;
  comment: string;
  created_at: Date;
}

/** Workflow events of a task with a nonempty comment, newest version first. */
export async function listNotes(dataSource: DataSource, taskId: string, page: PageQuery): Promise<NoteRow[]> {
  const [limit, offset] = limitOffset(page);
  return dataSource.query(
    `SELECT id::text, version, action, actor_id::text, comment, created_at
       FROM math_task_events
      WHERE task_id = $1 AND comment ~ '[^[:space:]]'
      ORDER BY version DESC LIMIT $2 OFFSET $3`,
    [taskId, limit, offset],
  );
}
