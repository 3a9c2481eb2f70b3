import { useShortcuts } from '../keyboard';
import { navigate } from '../router';
import { type TaskActions, VERDICT_KEYS } from './taskActions';
import { streamQueuePath } from './stream';

/** The task page's keys: a verdict, start, feedback, reload, and moving through the queue. */
export function useTaskShortcuts(review: TaskActions): void {
  const { allowed } = review;
  const verdictAllowed = allowed.has('verdict') && !review.conflict;
  useShortcuts([
    ...VERDICT_KEYS.map((v) => ({
      key: v.key,
      label: `Verdict: ${v.text.toLowerCase()} (then write the comment and press Ctrl+Enter)`,
      run: () => review.verdict(v.decision),
      enabled: verdictAllowed,
    })),
    {
      key: 's',
      label: 'Start the review',
      run: () => review.send({ action: 'start' }),
      enabled: allowed.has('start'),
    },
    {
      key: 'f',
      label: 'Write feedback (Ctrl+Enter sends it)',
      run: review.writeFeedback,
      enabled: allowed.has('feedback'),
    },
    { key: 'r', label: 'Reload the task', run: review.reload },
    { key: 'j', label: 'Skip to the next task of the queue', run: review.skip },
    { key: 'u', label: 'Back to the queue', run: () => navigate(streamQueuePath()) },
  ]);
}
