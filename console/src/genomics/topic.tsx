import type { ComponentChildren, Ref } from 'preact';
import { type MutableRef, useRef, useState } from 'preact/hooks';
import { type ApiError, getJson, IntentKey, writeJson } from '../rest';
import { useShortcuts } from '../keyboard';
import { Markdown } from '../markdown';
import { linkProps, navigate } from '../router';
import {
  formatTime,
  isOperator,
  label,
  ProblemNote,
  type Session,
  StateBadge,
  useAsync,
  useSession,
} from '../ui';
import {
  type Assignment,
  type Campaign,
  DECISIONS,
  DISPOSITIONS,
  type Measurement,
  type Note,
  type StoredPath,
  type TopicDetail,
  type TopicEvent,
  type TopicItem,
  type TopicPaths,
  type Verdict,
} from './types';

interface TopicData {
  detail: TopicDetail;
  measurements: Measurement[];
  paths: TopicPaths;
  notes: Note[];
  events: TopicEvent[];
  assignments: Assignment[];
}

const LIST_LIMIT = 50;

async function loadTopic(uid: string): Promise<TopicData> {
  const base = `/api/v1/topics/${encodeURIComponent(uid)}`;
  const list = <T,>(path: string) =>
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

/**
 * A topic: brief, original and rerun measurements side by side (never merged), storage paths and checksums,
 * notes, assignments and history, and the review actions the signed-in role may take.
 */
export function TopicPage({ topicUid }: { topicUid: string }) {
  const session = useSession();
  const data = useAsync(() => loadTopic(topicUid), [topicUid]);
  const [notice, setNotice] = useState<string | null>(null);
  const review = useRef<ReviewControl | null>(null);
  const reviewable = (data.data ? openAssignmentsOf(data.data.assignments, session) : []).length > 0;
  useShortcuts([
    ...VERDICT_KEYS.map((v) => ({
      key: v.key,
      label: `Review verdict: ${label(v.verdict).toLowerCase()} (then write the review and press Ctrl+Enter)`,
      run: () => review.current?.choose(v.verdict),
      enabled: reviewable,
    })),
    { key: 'u', label: 'Back to the topics', run: () => navigate('/genomics') },
    { key: 'r', label: 'Reload the topic', run: data.reload },
  ]);
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
  const operator = isOperator(session);
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
      {notice && (
        <p class="notice" role="status" data-testid="notice">
          {notice}
        </p>
      )}
      <dl class="facts wide">
        <dt>Decision</dt>
        <dd data-testid="decision">
          <StateBadge value={topic.decision} />
          {topic.previous_decision && <span class="muted"> (was {label(topic.previous_decision)})</span>}
          {topic.requires_re_review && <span class="badge">requires re-review</span>}
        </dd>
        <dt>Disposition</dt>
        <dd data-testid="disposition">
          <StateBadge value={topic.disposition} />
        </dd>
        <dt>Workflow</dt>
        <dd>{label(topic.workflow_status)}</dd>
        <dt>Planned reviewer</dt>
        <dd>{topic.planned_reviewer_id ? `member ${topic.planned_reviewer_id}` : '—'}</dd>
        <dt>Campaigns</dt>
        <dd>{detail.campaigns.map((c) => `${c.name} (${c.id}, ${label(c.status)})`).join('; ') || '—'}</dd>
        <dt>Clients</dt>
        <dd>{detail.clients.map((c) => c.name).join(', ') || '—'}</dd>
      </dl>

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
          <section aria-labelledby="assignments-title">
            <h2 id="assignments-title">Assignments</h2>
            {assignments.length === 0 && <p class="muted">No reviewer assigned yet.</p>}
            <ul class="plain">
              {assignments.map((a) => (
                <li key={a.id}>
                  #{a.id} · member {a.reviewer_id}
                  {a.reviewer_id === session.memberId ? ' (you)' : ''} · {label(a.status)}
                  {a.due_at ? ` · due ${formatTime(a.due_at)}` : ''}
                </li>
              ))}
            </ul>
          </section>
          {myOpenAssignments.length > 0 && (
            <ReviewForm
              base={base}
              assignments={myOpenAssignments}
              control={review}
              onDone={done}
              onReload={data.reload}
            />
          )}
          {operator && (
            <>
              <AssignForm base={base} current={topic.planned_reviewer_id} onDone={done} />
              <DecisionForm
                base={base}
                topic={topic}
                campaigns={detail.campaigns}
                onDone={done}
                onReload={data.reload}
              />
              <ReopenForm
                base={base}
                topic={topic}
                campaigns={detail.campaigns}
                onDone={done}
                onReload={data.reload}
              />
              <DispositionForm base={base} topic={topic} onDone={done} onReload={data.reload} />
            </>
          )}
          <section aria-labelledby="events-title">
            <h2 id="events-title">History</h2>
            {events.length === 0 && <p class="muted">No event yet.</p>}
            <ol class="history">
              {events.map((e) => (
                <li key={e.id}>
                  <strong>{label(e.kind)}</strong>
                  {e.actor_id ? ` by member ${e.actor_id}` : ''} ·{' '}
                  <span class="muted">{formatTime(e.created_at)}</span>
                  <EventDetail detail={e.detail} />
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </article>
  );
}

/** The assignments the signed-in member may review on: the API takes a review only on one's own ACTIVE one. */
function openAssignmentsOf(assignments: Assignment[], session: Session): Assignment[] {
  return assignments.filter((a) => a.status === 'ACTIVE' && a.reviewer_id === session.memberId);
}

function EventDetail({ detail }: { detail: Record<string, unknown> }) {
  const entries = Object.entries(detail).filter(([, v]) => v !== null && v !== '' && typeof v !== 'object');
  if (entries.length === 0) return null;
  return (
    <span class="muted">
      {' '}
      · {entries.map(([k, v]) => `${k.replaceAll('_', ' ')}: ${String(v)}`).join(', ')}
    </span>
  );
}

function MeasurementColumn(props: { scope: Measurement['scope']; title: string; items: Measurement[] }) {
  const rows = props.items.filter((m) => m.scope === props.scope);
  return (
    <section class="measurements" data-scope={props.scope} aria-label={props.title}>
      <h3>{props.title}</h3>
      {rows.length === 0 && <p class="muted">No measurement in this scope.</p>}
      {rows.map((m) => (
        <dl key={m.id} class="facts measurement" data-measurement-id={m.id}>
          <dt>Model</dt>
          <dd>{m.model_id}</dd>
          <dt>Status</dt>
          <dd>
            <StateBadge value={m.status} />
          </dd>
          <dt>Pass rate</dt>
          <dd data-testid="pass-rate">
            {m.status === 'MEASURED' && m.pass_rate !== null
              ? `${(m.pass_rate * 100).toFixed(1)} % (${m.scientific_passes} of ${m.completed})`
              : `unavailable${m.reason ? `: ${m.reason}` : ''}`}
          </dd>
          <dt>Measured</dt>
          <dd>{formatTime(m.measured_at)}</dd>
          <dt>Evidence</dt>
          <dd class="hash">sha256 {m.artifact_sha256}</dd>
        </dl>
      ))}
    </section>
  );
}

function PathTable({ caption, rows }: { caption: string; rows: StoredPath[] }) {
  return (
    <table class="list paths">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Title / status</th>
          <th scope="col">Path</th>
          <th scope="col">SHA-256</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={3} class="muted">
              none
            </td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{'number' in r ? `revision ${r.number} · ${label(r.status)}` : r.title}</td>
            <td>
              <code>{r.path ?? '—'}</code>
            </td>
            <td class="hash">{r.sha256 ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a form sends: its request body and the notice shown once it is done. */
interface WriteRequest {
  body: unknown;
  done: string;
}

/**
 * One write as a form: an Idempotency-Key per intent (a double click or a retry sends the same key), its error,
 * and, given `onReload`, a 409 that says what happened and offers a reload.
 */
function WriteForm(props: {
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

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** Ctrl+Enter (or Cmd+Enter) in a text field submits its form, as in the math task page. */
function submitOnCtrlEnter(event: KeyboardEvent) {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    (event.target as HTMLTextAreaElement).form?.requestSubmit();
  }
}

function CampaignSelect({
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

function Notes(props: {
  base: string;
  notes: Note[];
  campaigns: Campaign[];
  onDone: (t: string) => void;
  onReload: () => void;
}) {
  const session = useSession();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <section aria-labelledby="notes-title">
        <h2 id="notes-title">Notes</h2>
        {props.notes.length === 0 && <p class="muted">No note yet.</p>}
        <ul class="notes">
          {props.notes.map((n) => (
            <li key={n.id} data-note-id={n.id}>
              <p class="muted">
                {n.kind === 'campaign' ? `campaign ${n.campaign_id}` : 'topic'} note by member {n.author_id}
                {n.author_id === session.memberId ? ' (you)' : ''} · {formatTime(n.created_at)}
                {n.edit_count > 0 ? ` · edited ${n.edit_count}×` : ''}
              </p>
              {editing === n.id ? (
                <NoteEditForm
                  base={props.base}
                  note={n}
                  onDone={(t) => {
                    setEditing(null);
                    props.onDone(t);
                  }}
                  onReload={() => {
                    setEditing(null);
                    props.onReload();
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <>
                  <p class="note-body">{n.body}</p>
                  {/* The API lets only a note's author edit it. */}
                  {n.author_id === session.memberId && (
                    <button type="button" class="link" onClick={() => setEditing(n.id)}>
                      Edit note {n.id}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
      <WriteForm
        id="add-note"
        title="Add a note"
        submit="Add note"
        method="POST"
        path={`${props.base}/notes`}
        onDone={props.onDone}
        request={(form) => ({
          body: { body: text(form, 'body'), campaignId: text(form, 'campaignId') || null },
          done: 'Note added.',
        })}
      >
        <label for="note-body">Note</label>
        <textarea id="note-body" name="body" rows={3} maxLength={50000} required />
        <CampaignSelect id="note-campaign" campaigns={props.campaigns} allowNone />
      </WriteForm>
    </>
  );
}

/** Edits a note if its body is still the one shown (its SHA-256 is sent as the precondition; else a 409). */
function NoteEditForm(props: {
  base: string;
  note: Note;
  onDone: (t: string) => void;
  onReload: () => void;
  onCancel: () => void;
}) {
  const id = `note-edit-${props.note.id}`;
  return (
    <WriteForm
      id={id}
      title={`Edit note ${props.note.id}`}
      heading="h3"
      submit="Save note"
      method="PUT"
      path={`${props.base}/notes/${encodeURIComponent(props.note.id)}`}
      onDone={props.onDone}
      onReload={props.onReload}
      changed="Someone changed this note"
      request={(form) => ({
        body: { body: text(form, 'body'), expectedBodySha256: props.note.body_sha256 },
        done: `Note ${props.note.id} edited.`,
      })}
      extra={
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      }
    >
      <label for={`${id}-body`}>Note text</label>
      <textarea
        id={`${id}-body`}
        name="body"
        rows={4}
        maxLength={50000}
        required
        defaultValue={props.note.body}
        onKeyDown={submitOnCtrlEnter}
        autoFocus
      />
    </WriteForm>
  );
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

function ReviewForm(props: {
  base: string;
  assignments: Assignment[];
  control: MutableRef<ReviewControl | null>;
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
        body: { assignmentId: text(f, 'assignmentId'), verdict: text(f, 'verdict'), body: text(f, 'body') },
        done: `Review submitted (${label(text(f, 'verdict'))}).`,
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

function AssignForm(props: { base: string; current: string | null; onDone: (t: string) => void }) {
  return (
    <WriteForm
      id="assign"
      title="Reviewer"
      submit="Save reviewer"
      method="PUT"
      path={`${props.base}/reviewer`}
      onDone={props.onDone}
      request={(form) => {
        const due = text(form, 'dueAt');
        const reviewerId = text(form, 'reviewerId').trim() || null;
        return {
          body: {
            reviewerId,
            instructions: text(form, 'instructions'),
            dueAt: due ? new Date(due).toISOString() : null,
          },
          done: reviewerId ? 'Reviewer assigned.' : 'Reviewer removed.',
        };
      }}
    >
      <label for="assign-reviewer">Reviewer member id (empty removes)</label>
      <input
        id="assign-reviewer"
        name="reviewerId"
        inputMode="numeric"
        pattern="[1-9][0-9]{0,18}"
        defaultValue={props.current ?? ''}
      />
      <label for="assign-instructions">Instructions</label>
      <textarea id="assign-instructions" name="instructions" rows={2} maxLength={10000} />
      <label for="assign-due">Due (your local time, optional)</label>
      <input id="assign-due" name="dueAt" type="datetime-local" />
    </WriteForm>
  );
}

interface OwnerFormProps {
  base: string;
  topic: TopicItem;
  onDone: (t: string) => void;
  onReload: () => void;
}

/** Where an owner's form writes, and what it does when done or after a 409. */
const ownerWrite = (props: OwnerFormProps, path: string) => ({
  path: `${props.base}/${path}`,
  onDone: props.onDone,
  onReload: props.onReload,
});

function DecisionForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  return (
    <WriteForm
      id="decision"
      title="Override the decision"
      submit="Override decision"
      method="POST"
      {...ownerWrite(props, 'decision')}
      request={(form) => ({
        body: {
          expectedDecision: props.topic.decision,
          decision: text(form, 'decision'),
          campaignId: text(form, 'campaignId'),
          reason: text(form, 'reason'),
        },
        done: `Decision set to ${label(text(form, 'decision'))}.`,
      })}
    >
      <p class="muted">Current: {label(props.topic.decision)} (sent as the expected decision).</p>
      <label for="decision-value">New decision</label>
      <select id="decision-value" name="decision">
        {DECISIONS.map((d) => (
          <option key={d} value={d}>
            {label(d)}
          </option>
        ))}
      </select>
      <CampaignSelect id="decision-campaign" campaigns={props.campaigns} />
      <ReasonField id="decision-reason" />
    </WriteForm>
  );
}

function ReopenForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  return (
    <WriteForm
      id="reopen"
      title="Reopen the review"
      submit="Reopen"
      method="POST"
      {...ownerWrite(props, 'reopen')}
      request={(form) => ({
        body: {
          expectedDecision: props.topic.decision,
          campaignId: text(form, 'campaignId'),
          reason: text(form, 'reason'),
        },
        done: 'Review reopened.',
      })}
    >
      <CampaignSelect id="reopen-campaign" campaigns={props.campaigns} />
      <ReasonField id="reopen-reason" />
    </WriteForm>
  );
}

function DispositionForm(props: OwnerFormProps) {
  return (
    <WriteForm
      id="disposition"
      title="Disposition"
      submit="Change disposition"
      method="PUT"
      {...ownerWrite(props, 'disposition')}
      request={(form) => ({
        body: {
          expectedDisposition: props.topic.disposition,
          disposition: text(form, 'disposition'),
          reason: text(form, 'reason'),
        },
        done: `Disposition set to ${label(text(form, 'disposition'))}.`,
      })}
    >
      <label for="disposition-value">New disposition</label>
      <select id="disposition-value" name="disposition">
        {DISPOSITIONS.map((d) => (
          <option key={d} value={d} selected={d === props.topic.disposition}>
            {label(d)}
          </option>
        ))}
      </select>
      <ReasonField id="disposition-reason" />
    </WriteForm>
  );
}

function ReasonField({ id }: { id: string }) {
  return (
    <>
      <label for={id}>Reason</label>
      <textarea id={id} name="reason" rows={2} maxLength={2000} required />
    </>
  );
}
