import type { DataSource } from 'typeorm';
import type { GenomicsAssignment } from '../../../entities/GenomicsAssignment';
import { Member } from '../../../entities/Member';
import type { Queryable } from '../../../entities/queryable';
import type { RowPick } from '../../../entities/rows';

/** A genomics member by id, with what decides whether they may be assigned. */
export async function findGenomicsMember(dataSource: DataSource, memberId: string) {
  return dataSource
    .getRepository(Member)
    .findOne({ select: { enabled: true, primaryAdmin: true }, where: { id: memberId, service: 'genomics' } });
}

/** The topic's newest assignment with its review count: what a task workflow starts from. */
export async function latestAssignment(db: Queryable, topicId: string) {
  const [row]: Array<
    RowPick<GenomicsAssignment, 'id' | 'reviewer_id' | 'status' | 'due_at'> & { feedback_count: number }
  > = await db.query(
    `SELECT a.id::text, a.reviewer_id::text, a.status, a.due_at,
            (SELECT count(*)::int FROM genomics_reviews r WHERE r.assignment_id = a.id) AS feedback_count
       FROM genomics_assignments a WHERE a.topic_id = $1 ORDER BY a.id DESC LIMIT 1`,
    [topicId],
  );
  return row ?? null;
}
