import type { Queryable } from '../../entities/queryable';

/** Appends one event to a topic's trail inside the caller's transaction (the API's direct writes). */
export async function writeTopicEvent(
  tx: Queryable,
  topicId: string,
  kind: string,
  actorId: string,
  detail: Record<string, unknown>,
): Promise<string> {
  const [row]: Array<{ id: string }> = await tx.query(
    `INSERT INTO genomics_events (topic_id, kind, actor_id, detail) VALUES ($1, $2, $3, $4) RETURNING id::text`,
    [topicId, kind, actorId, JSON.stringify(detail)],
  );
  return row.id;
}
