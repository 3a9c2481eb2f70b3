/** The genomics API v1 records as the console reads them, taken from the published contract's generated types. */
import { type GenomicsRequest, type GenomicsResponse, valuesOf } from '../contract/types';

/** One element of a listing's `items`. */
type ItemOf<Listing> = Listing extends { items: Array<infer Item> } ? Item : never;

export type TopicList = GenomicsResponse<'/api/v1/topics'>;
export type TopicItem = TopicList['items'][number];
export type TopicDetail = GenomicsResponse<'/api/v1/topics/{topicUid}'>;
export type Campaign = TopicDetail['campaigns'][number];
export type Measurement = ItemOf<GenomicsResponse<'/api/v1/topics/{topicUid}/measurements'>>;
export type TopicPaths = GenomicsResponse<'/api/v1/topics/{topicUid}/paths'>;
/** A report, revision or publication row of a topic's storage paths. */
export type StoredPath = TopicPaths[keyof TopicPaths][number];
export type Note = ItemOf<GenomicsResponse<'/api/v1/topics/{topicUid}/notes'>>;
export type TopicEvent = ItemOf<GenomicsResponse<'/api/v1/topics/{topicUid}/events'>>;
export type Assignment = ItemOf<GenomicsResponse<'/api/v1/topics/{topicUid}/assignments'>>;
export type GenomicsSession = GenomicsResponse<'/api/v1/session'>;

export type Verdict = GenomicsRequest<'/api/v1/topics/{topicUid}/reviews', 'post'>['verdict'];
type Decision = GenomicsRequest<'/api/v1/topics/{topicUid}/decision', 'post'>['decision'];

export const DISPOSITIONS = valuesOf<TopicItem['disposition']>({
  ACTIVE: true,
  REJECTED: true,
  DISCARDED: true,
  TIMED_OUT: true,
});
export const DECISIONS = valuesOf<Decision>({
  READY: true,
  MINOR_REPAIR: true,
  MAJOR_REPAIR: true,
  REJECTED: true,
});
