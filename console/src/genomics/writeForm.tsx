import type { ComponentChildren, Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { type ApiError, IntentKey, writeJson } from '../rest';
import { ProblemNote } from '../ui';
import type { Campaign } from './types';

/** What a form sends: its request body and the notice shown once it is done. */
interface WriteRequest {
  body: unknown;
  done: string;
}

/**
 * One write as a form: an Idempotency-Key per intent (a double click or a retry sends the same key), its error,
 * and, given `onReload`, a 409 that says what happened and offers a reload.
 */
export function WriteForm(props: {
  id: string;
  title: string;
  submit: string;
  method: 'POST' | 'PUT';
  path: string;
  request: (form: FormData) => WriteRequest;
  onDone: (text: string) => void;
  onReload?: () => void;
  /** What a 409 says changed since the page was loaded. */
  changed?: string;
  heading?: 'h2' | 'h3';
  formRef?: Ref<HTMLFormElement>;
  /** Beside the submit button (e.g. Cancel). */
  extra?: ComponentChildren;
  children: ComponentChildren;
}) {
  const intent = useRef(new IntentKey());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [conflict, setConflict] = useState<ApiError | null>(null);
  const send = async (formElement: HTMLFormElement) => {
    if (busy) return;
    const { body, done } = props.request(new FormData(formElement));
    const { method, path } = props;
    setBusy(true);
    setError(null);
    setConflict(null);
    try {
      await writeJson(method, path, body, intent.current.for({ method, path, body }));
      intent.current.settled();
      // Done: the fields start afresh for the next write (a note added is not offered again).
      formElement.reset();
      props.onDone(done);
    } catch (e) {
      if ((e as ApiError).status === 409 && props.onReload) setConflict(e as ApiError);
      else setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const Heading = props.heading ?? 'h2';
  return (
    <section aria-labelledby={`${props.id}-title`}>
      <Heading id={`${props.id}-title`}>{props.title}</Heading>
      <form
        class="stack"
        ref={props.formRef}
        onSubmit={(e) => {
          e.preventDefault();
          void send(e.target as HTMLFormElement);
        }}
      >
        {props.children}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {props.submit}
          </button>
          {props.extra}
        </div>
      </form>
      {error && <ProblemNote error={error} />}
      {conflict && (
        <div class="conflict" role="alert">
          <p>
            <strong>Conflict:</strong> {conflict.message} {props.changed ?? 'Someone changed this topic'}{' '}
            since you loaded it.
          </p>
          <button
            type="button"
            onClick={() => {
              setConflict(null);
              props.onReload?.();
            }}
          >
            Reload the topic
          </button>
        </div>
      )}
    </section>
  );
}

/** A form field's value as text (empty when absent). */
export const formText = (form: FormData, name: string) => String(form.get(name) ?? '');

/** Ctrl+Enter (or Cmd+Enter) in a text field submits its form, as in the math task page. */
export function submitOnCtrlEnter(event: KeyboardEvent) {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    (event.target as HTMLTextAreaElement).form?.requestSubmit();
  }
}

export function CampaignSelect({
  id,
  campaigns,
  allowNone,
}: {
  id: string;
  campaigns: Campaign[];
  allowNone?: boolean;
}) {
  return (
    <>
      <label for={id}>Campaign</label>
      <select id={id} name="campaignId" required={!allowNone}>
        {allowNone && <option value="">none (topic note)</option>}
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </>
  );
}

export function ReasonField({ id }: { id: string }) {
  return (
    <>
      <label for={id}>Reason</label>
      <textarea id={id} name="reason" rows={2} maxLength={2000} required />
    </>
  );
}
