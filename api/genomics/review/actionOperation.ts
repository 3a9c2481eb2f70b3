import type Joi from 'joi';
import type { GenomicsActionReceipt } from '../../../workflows/genomicsTask/messages';
import type { GenomicsAction } from '../../../workflows/genomicsTask/state';
import { defineOperation, type NoHeaders, type Operation, type PrepareRequest } from '../../kernel/operation';
import { findTopic, type TopicRow } from '../topics/queries';
import { buildReceipt } from '../topics/receipts';
import { type TopicParams, topicParams } from '../topics/schemas';
import { applyGenomicsAction } from './actions';

type ReviewActionOperation<B> = Operation<TopicParams, Record<string, never>, B, NoHeaders, TopicRow>;

/**
 * A review action as its operation declares it: the line of the spec's endpoint table (method, path, role,
 * scopes, Idempotency-Key) and the body and response of its section, then what it asks of the topic's workflow.
 */
export interface ReviewActionDeclaration<B> extends Pick<
  ReviewActionOperation<B>,
  'operationId' | 'summary' | 'method' | 'path' | 'minRole' | 'scopes' | 'examples' | 'response' | 'errors'
> {
  /** The Idempotency-Key is the workflow update's id: a retry gets the first receipt, never a second action. */
  idempotency: 'required';
  body: Joi.ObjectSchema<B>;
  /** The reads and checks before anything is sent (an unknown topic is 404 first); default: the topic alone. */
  prepare?: (request: PrepareRequest<TopicParams, Record<string, never>, B>) => Promise<TopicRow>;
  /** The action the topic's task workflow decides and persists. */
  action: (body: B) => GenomicsAction;
  /** The fields the spec names for this response, added to the receipt; default: none. */
  namedFields?: (result: GenomicsActionReceipt, body: B) => Record<string, unknown>;
}

/**
 * One review action operation (reviewer assignment, reviews, decision override, reopen, disposition,
 * revisions): it reads the topic, sends the action to the topic's task workflow as a Workflow Update and
 * answers with the receipt of what the workflow committed.
 */
export function defineReviewAction<B>(
  // The body schema alone types the body: the examples and callbacks are checked against it.
  declaration: ReviewActionDeclaration<NoInfer<B>> & { body: Joi.ObjectSchema<B> },
): ReviewActionOperation<B> {
  const { body, prepare, action, namedFields, ...endpoint } = declaration;
  return defineOperation({
    ...endpoint,
    request: { params: topicParams, body },
    prepare: prepare ?? (({ params, deps }) => findTopic(deps.dataSource, params.topicUid)),
    async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
      const result = await applyGenomicsAction(deps, principal, topic, action(body), idempotencyKey);
      const receipt = await buildReceipt(deps.dataSource, deps.config.s3.bucket, {
        topicUid: topic.uid,
        recordType: result.recordType,
        recordId: result.recordId,
        eventId: result.eventId,
      });
      return { body: { ...receipt, ...namedFields?.(result, body) } };
    },
  });
}
