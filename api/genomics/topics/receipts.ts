import type { Queryable } from '../../../entities/queryable';
import { problems } from '../../kernel/errors';
import { presentNote } from '../notes/presenters';
import { findNote } from '../notes/queries';
import { presentAssignment, presentReview, presentRevision } from '../records/presenters';
import { findAssignment, findReview, findRevision } from '../records/queries';
import { presentTopicItem } from './presenters';
import { findTopic } from './queries';
import type { RecordType } from './schemas';

export interface ReceiptOf {
  topicUid: string;
  recordType: RecordType;
  /** null when the record is the topic itself. */
  recordId: string | null;
  eventId: string;
}

/**
 * The operation receipt (see `receiptSchema`): read after the commit, so it shows the committed state.
 * The kernel stores it with the Idempotency-Key; a retry gets this body again, not a fresh read.
 */
export async function buildReceipt(db: Queryable, bucket: string, of: ReceiptOf) {
  const topic = await findTopic(db, of.topicUid);
  const record =
    of.recordId === null ? null : await readRecord(db, bucket, topic.id, of.recordType, of.recordId);
  if (of.recordId !== null && record === null) throw problems.internal();
  return {
    topicUid: of.topicUid,
    recordType: of.recordType,
    recordId: of.recordId ?? of.topicUid,
    eventId: of.eventId,
    topic: presentTopicItem(topic),
    record,
  };
}

async function readRecord(db: Queryable, bucket: string, topicId: string, type: RecordType, id: string) {
  switch (type) {
    case 'topic':
      return null;
    case 'note': {
      const note = await findNote(db, topicId, id);
      return note && presentNote(note);
    }
    case 'assignment': {
      const assignment = await findAssignment(db, topicId, id);
      return assignment && presentAssignment(assignment);
    }
    case 'review': {
      const review = await findReview(db, topicId, id);
      return review && presentReview(review);
    }
    case 'revision': {
      const revision = await findRevision(db, topicId, id);
      return revision && presentRevision(bucket, revision);
    }
  }
}
