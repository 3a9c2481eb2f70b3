import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { label, type Session } from '../ui';
import type { Assignment, Verdict } from './types';
import { formText, submitOnCtrlEnter, WriteForm } from './writeForm';

/** The assignments the signed-in member may review on: the API takes a review only on one's own ACTIVE one. */
export function openAssignmentsOf(assignments: Assignment[], session: Session): Assignment[] {
  return assignments.filter((a) => a.status === 'ACTIVE' && a.reviewer_id === session.memberId);
}

/** The review verdicts' single keys (math's a, n, x where the meaning is alike). */
export const VERDICT_KEYS: Array<{ key: string; verdict: Verdict }> = [
  { key: 'c', verdict: 'COMMENT' },
  { key: 'a', verdict: 'READY_AS_IS' },
  { key: 'n', verdict: 'MINOR_REPAIR' },
  { key: 'm', verdict: 'MAJOR_REPAIR' },
  { key: 'x', verdict: 'REJECTED' },
];

/** What a verdict key does to the review form: choose the verdict, then send it or focus the review text. */
export interface ReviewControl {
  choose(verdict: Verdict): void;
}

export function ReviewForm(props: {
  base: string;
  assignments: Assignment[];
  control: RefObject<ReviewControl | null>;
  onDone: (t: string) => void;
  onReload: () => void;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [verdict, setVerdict] = useState<Verdict>('COMMENT');
  props.control.current = {
    choose(chosen) {
      setVerdict(chosen);
      const body = form.current?.elements.namedItem('body') as HTMLTextAreaElement | null;
      // The select must show the chosen verdict before the form is read: submit after this render.
      if (body?.value.trim()) setTimeout(() => form.current?.requestSubmit());
      else body?.focus();
    },
  };
  return (
    <WriteForm
      id="review"
      title="Submit a review"
      submit="Submit review"
      method="POST"
      path={`${props.base}/reviews`}
      formRef={form}
      onDone={props.onDone}
      onReload={props.onReload}
      request={(f) => ({
        body: {
          assignmentId: formText(f, 'assignmentId'),
          verdict: formText(f, 'verdict'),
          body: formText(f, 'body'),
        },
        done: `Review submitted (${label(formText(f, 'verdict'))}).`,
      })}
    >
      <label for="review-assignment">Assignment</label>
      <select id="review-assignment" name="assignmentId">
        {props.assignments.map((a) => (
          <option key={a.id} value={a.id}>
            #{a.id} (member {a.reviewer_id}, {label(a.status)})
          </option>
        ))}
      </select>
      <label for="review-verdict">Verdict</label>
      <select
        id="review-verdict"
        name="verdict"
        value={verdict}
        onChange={(e) => setVerdict((e.target as HTMLSelectElement).value as Verdict)}
      >
        {VERDICT_KEYS.map((v) => (
          <option key={v.verdict} value={v.verdict}>
            {label(v.verdict)} (key {v.key})
          </option>
        ))}
      </select>
      <label for="review-body">Review (Ctrl+Enter sends)</label>
      <textarea
        id="review-body"
        name="body"
        rows={4}
        maxLength={50000}
        required
        onKeyDown={submitOnCtrlEnter}
      />
    </WriteForm>
  );
}
