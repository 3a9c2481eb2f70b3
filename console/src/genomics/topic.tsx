import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useShortcuts } from '../keyboard';
import { Markdown } from '../markdown';
import { linkProps, navigate } from '../router';
import { isOperator, label, Notice, ProblemNote, useSession } from '../ui';
import { Notes } from './notes';
import { OwnerForms } from './ownerForms';
import { openAssignmentsOf, type ReviewControl, ReviewForm, VERDICT_KEYS } from './reviewForm';
import { useTopic } from './topicData';
import { AssignmentList, MeasurementColumn, PathTable, TopicFacts, TopicHistory } from './topicRecords';

/**
 * A topic: brief, original and rerun measurements side by side (never merged), storage paths and checksums,
 * notes, assignments and history, and the review actions the signed-in role may take.
 */
export function TopicPage({ topicUid }: { topicUid: string }) {
  const session = useSession();
  const data = useTopic(topicUid);
  const [notice, setNotice] = useState<string | null>(null);
  const review = useRef<ReviewControl | null>(null);
  const reviewable = (data.data ? openAssignmentsOf(data.data.assignments, session) : []).length > 0;
  useTopicShortcuts(review, reviewable, data.reload);
  if (data.error)
    return (
      <section>
        <p>
          <a {...linkProps('/genomics')}>← Topics</a>
        </p>
        <ProblemNote error={data.error} />
      </section>
    );
  if (!data.data) return <p class="muted">Loading {topicUid}…</p>;
  const { detail, measurements, paths, notes, events, assignments } = data.data;
  const topic = detail.topic;
  const done = (text: string) => {
    setNotice(text);
    data.reload();
  };
  const base = `/api/v1/topics/${encodeURIComponent(topicUid)}`;
  const myOpenAssignments = openAssignmentsOf(assignments, session);

  return (
    <article aria-labelledby="topic-title" data-uid={topic.uid}>
      <p class="crumbs">
        <a {...linkProps('/genomics')}>← Topics</a> <span class="muted">(u)</span>
      </p>
      <h1 id="topic-title">{topic.title ?? topic.uid}</h1>
      <p class="meta">
        <code>{topic.uid}</code> · {topic.batch} · topic {topic.topic} · {topic.category ?? 'no category'}
      </p>
      <Notice text={notice} />
      <TopicFacts detail={detail} />

      <section aria-labelledby="measurements-title">
        <h2 id="measurements-title">Measurements</h2>
        <p class="muted">
          Original-report and public-package-rerun measurements are separate scopes; they are never merged.
        </p>
        <div class="side-by-side">
          <MeasurementColumn scope="original_report" title="Original report" items={measurements} />
          <MeasurementColumn scope="public_package_rerun" title="Public package rerun" items={measurements} />
        </div>
      </section>

      <div class="columns">
        <div class="main-column">
          {topic.markdown && (
            <section aria-labelledby="brief-title">
              <h2 id="brief-title">Brief</h2>
              <Markdown source={topic.markdown} />
            </section>
          )}
          <section aria-labelledby="paths-title">
            <h2 id="paths-title">Storage paths and checksums</h2>
            <PathTable caption="Reports" rows={paths.reports} />
            <PathTable caption="Revisions" rows={paths.revisions} />
            <PathTable caption="Publications" rows={paths.publications} />
          </section>
          <Notes
            base={base}
            notes={notes}
            campaigns={detail.campaigns}
            onDone={done}
            onReload={data.reload}
          />
        </div>
        <aside class="side-column" aria-label="Review">
          <AssignmentList assignments={assignments} memberId={session.memberId} />
          {myOpenAssignments.length > 0 && (
            <ReviewForm
              base={base}
              assignments={myOpenAssignments}
              control={review}
              onDone={done}
              onReload={data.reload}
            />
          )}
          {isOperator(session) && (
            <OwnerForms
              base={base}
              topic={topic}
              campaigns={detail.campaigns}
              onDone={done}
              onReload={data.reload}
            />
          )}
          <TopicHistory events={events} />
        </aside>
      </div>
    </article>
  );
}

/** The page's keys: a verdict key chooses that verdict in the review form, when a review is open to the member. */
function useTopicShortcuts(review: RefObject<ReviewControl | null>, reviewable: boolean, reload: () => void) {
  useShortcuts([
    ...VERDICT_KEYS.map((v) => ({
      key: v.key,
      label: `Review verdict: ${label(v.verdict).toLowerCase()} (then write the review and press Ctrl+Enter)`,
      run: () => review.current?.choose(v.verdict),
      enabled: reviewable,
    })),
    { key: 'u', label: 'Back to the topics', run: () => navigate('/genomics') },
    { key: 'r', label: 'Reload the topic', run: reload },
  ]);
}
