import { getJson } from '../rest';
import { type Async, useAsync } from '../ui';
import type { Assignment, Measurement, Note, TopicDetail, TopicEvent, TopicPaths } from './types';

/** Everything the topic page shows, read in parallel. */
export interface TopicData {
  detail: TopicDetail;
  measurements: Measurement[];
  paths: TopicPaths;
  notes: Note[];
  events: TopicEvent[];
  assignments: Assignment[];
}

/** The newest notes, events and assignments the page lists. */
const LIST_LIMIT = 50;

async function loadTopic(uid: string): Promise<TopicData> {
  const base = `/api/v1/topics/${encodeURIComponent(uid)}`;
  const list = <T>(path: string) =>
    getJson<{ items: T[] }>(`${base}${path}`, { limit: LIST_LIMIT }).then((r) => r.items);
  const [detail, measurements, paths, notes, events, assignments] = await Promise.all([
    getJson<TopicDetail>(base),
    getJson<{ items: Measurement[] }>(`${base}/measurements`).then((r) => r.items),
    getJson<TopicPaths>(`${base}/paths`),
    list<Note>('/notes'),
    list<TopicEvent>('/events'),
    list<Assignment>('/assignments'),
  ]);
  return { detail, measurements, paths, notes, events, assignments };
}

/** The topic page's data, loaded when the page opens on a topic; `reload` after a write. */
export const useTopic = (uid: string): Async<TopicData> => useAsync(() => loadTopic(uid), [uid]);
