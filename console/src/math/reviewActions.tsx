import { useState } from 'preact/hooks';
import { label, ProblemNote } from '../ui';
import { type TaskActions, VERDICT_KEYS } from './taskActions';
import type { Workflow } from './types';

/**
 * The actions the workflow allows the signed-in member on this task: the comment and the verdict it goes with,
 * feedback, reopen, assignment, client, archive and restore. Nothing is sent while a 409 is unresolved.
 */
export function ReviewActions({ workflow, review }: { workflow: Workflow; review: TaskActions }) {
  const { allowed, comment, pending } = review;
  const locked = review.busy || !!review.conflict;
  const commentOrNull = comment.trim() ? comment : null;
  return (
    <section aria-labelledby="actions-title" class="actions">
      <h2 id="actions-title">Actions</h2>
      {workflow.allowed_actions.length === 0 && (
        <p class="muted">No action is open to you on this task now.</p>
      )}
      {allowed.has('start') && (
        <button type="button" disabled={locked} onClick={() => review.send({ action: 'start' })}>
          Start review <kbd>s</kbd>
        </button>
      )}
      {(allowed.has('feedback') ||
        allowed.has('verdict') ||
        allowed.has('reopen') ||
        allowed.has('archive') ||
        allowed.has('restore')) && (
        <>
          <label for="comment">
            Comment{pending ? ` for the verdict “${label(pending)}” (Ctrl+Enter sends)` : ''}
          </label>
          <textarea
            id="comment"
            ref={review.commentBox}
            rows={4}
            maxLength={10000}
            value={comment}
            onInput={(e) => review.setComment((e.target as HTMLTextAreaElement).value)}
            onKeyDown={review.onCommentKey}
          />
        </>
      )}
      {allowed.has('verdict') && (
        <div class="verdicts" role="group" aria-label="Verdict">
          {VERDICT_KEYS.map((v) => (
            <button
              type="button"
              key={v.key}
              class={pending === v.decision ? 'pressed' : ''}
              aria-pressed={pending === v.decision}
              disabled={locked}
              onClick={() => review.verdict(v.decision)}
            >
              {v.text} <kbd>{v.key}</kbd>
            </button>
          ))}
        </div>
      )}
      {allowed.has('feedback') && (
        <button type="button" disabled={locked} onClick={() => review.withComment('feedback')}>
          Send feedback
        </button>
      )}
      {allowed.has('reopen') && (
        <button type="button" disabled={locked} onClick={() => review.withComment('reopen')}>
          Reopen review
        </button>
      )}
      {allowed.has('assign') && (
        <ChoiceForm
          id="assignee"
          label="Assign to"
          none="nobody (unassign)"
          submit="Assign"
          choices={workflow.reviewer_choices.map((c) => ({
            id: c.id,
            enabled: c.enabled,
            text: `${c.display_name}${c.enabled ? '' : ' (disabled)'}`,
          }))}
          locked={locked}
          onSubmit={(id) => review.send({ action: 'assign', assignee_id: id })}
        />
      )}
      {allowed.has('client') && (
        <ChoiceForm
          id="client"
          label="Client"
          none="none"
          submit="Set client"
          choices={workflow.client_choices.map((c) => ({ id: c.id, enabled: c.enabled, text: c.name }))}
          locked={locked}
          onSubmit={(id) => review.send({ action: 'client', client_id: id })}
        />
      )}
      {allowed.has('archive') && (
        <button
          type="button"
          disabled={locked}
          onClick={() => review.send({ action: 'archive', comment: commentOrNull })}
        >
          Archive
        </button>
      )}
      {allowed.has('restore') && (
        <button
          type="button"
          disabled={locked}
          onClick={() => review.send({ action: 'restore', comment: commentOrNull })}
        >
          Restore
        </button>
      )}
      {review.actionError && <ProblemNote error={review.actionError} />}
    </section>
  );
}

/** A select of members or clients (disabled ones shown, not choosable) and the button that sends the choice. */
function ChoiceForm(props: {
  id: string;
  label: string;
  /** The first option, sent as null. */
  none: string;
  submit: string;
  choices: Array<{ id: string; enabled: boolean; text: string }>;
  locked: boolean;
  onSubmit: (id: string | null) => void;
}) {
  const [chosen, setChosen] = useState('');
  return (
    <div class="inline-form">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
        <option value="">{props.none}</option>
        {props.choices.map((c) => (
          <option key={c.id} value={c.id} disabled={!c.enabled}>
            {c.text}
          </option>
        ))}
      </select>
      <button type="button" disabled={props.locked} onClick={() => props.onSubmit(chosen || null)}>
        {props.submit}
      </button>
    </div>
  );
}
