import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { type ApiError, getJson, IntentKey, writeJson } from '../rest';
import { useShortcuts } from '../keyboard';
import { Markdown } from '../markdown';
import { linkProps, navigate } from '../router';
import { formatTime, isOperator, label, ProblemNote, StateBadge, useAsync, useSession } from '../ui';
import {
  type Assignment,
  type Campaign,
  DECISIONS,
  DISPOSITIONS,
  type Measurement,
  type Note,
  type StoredPath,
  type TopicEvent,
  type TopicItem,
  VERDICTS,
} from './types';

interface TopicDetail {
  topic: TopicItem & { markdown: string | null; created_at: string; updated_at: string };
  campaigns: Campaign[];
  clients: Array<{ id: string; name: string; enabled: boolean }>;
}
interface Paths {
  reports: StoredPath[];
  revisions: StoredPath[];
  publications: StoredPath[];
}
interface TopicData {
  detail: TopicDetail;
  measurements: Measurement[];
  paths: Paths;
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
    getJson<Paths>(`${base}/paths`),
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
  useShortcuts([
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
  const myOpenAssignments = assignments.filter(
    (a) => !a.closed_at && (operator || a.reviewer_id === session.memberId),
  );

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
          <Notes base={base} notes={notes} campaigns={detail.campaigns} onDone={done} />
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
            <ReviewForm base={base} assignments={myOpenAssignments} onDone={done} />
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
            <td>
              {r.title ?? (r.number !== undefined ? `revision ${r.number} · ${label(r.status)}` : r.id)}
            </td>
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

/** A write with an Idempotency-Key per intent, its error, and a 409 that offers a reload. */
function useWrite(onDone: (text: string) => void) {
  const intent = useRef(new IntentKey());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [conflict, setConflict] = useState<ApiError | null>(null);
  const write = async (method: 'POST' | 'PUT', path: string, body: unknown, doneText: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    setConflict(null);
    try {
      await writeJson(method, path, body, intent.current.for({ method, path, body }));
      intent.current.settled();
      onDone(doneText);
    } catch (e) {
      if ((e as ApiError).status === 409) setConflict(e as ApiError);
      else setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, conflict, write, clearConflict: () => setConflict(null) };
}

function FormSection(props: {
  id: string;
  title: string;
  onSubmit: (form: FormData) => void;
  busy: boolean;
  submit: string;
  error: ApiError | null;
  conflict?: ApiError | null;
  onReload?: () => void;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit(new FormData(e.target as HTMLFormElement));
        }}
      >
        {props.children}
        <button type="submit" disabled={props.busy}>
          {props.submit}
        </button>
      </form>
      {props.error && <ProblemNote error={props.error} />}
      {props.conflict && (
        <div class="conflict" role="alert">
          <p>
            <strong>Conflict:</strong> {props.conflict.message} Someone changed this topic since you loaded
            it.
          </p>
          <button type="button" onClick={props.onReload}>
            Reload the topic
          </button>
        </div>
      )}
    </section>
  );
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

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

function Notes(props: { base: string; notes: Note[]; campaigns: Campaign[]; onDone: (t: string) => void }) {
  const w = useWrite(props.onDone);
  return (
    <>
      <section aria-labelledby="notes-title">
        <h2 id="notes-title">Notes</h2>
        {props.notes.length === 0 && <p class="muted">No note yet.</p>}
        <ul class="notes">
          {props.notes.map((n) => (
            <li key={n.id}>
              <p class="muted">
                {n.kind === 'campaign' ? `campaign ${n.campaign_id}` : 'topic'} note by member {n.author_id} ·{' '}
                {formatTime(n.created_at)}
                {n.edit_count > 0 ? ` · edited ${n.edit_count}×` : ''}
              </p>
              <p class="note-body">{n.body}</p>
            </li>
          ))}
        </ul>
      </section>
      <FormSection
        id="add-note"
        title="Add a note"
        busy={w.busy}
        submit="Add note"
        error={w.error}
        onSubmit={(form) =>
          void w.write(
            'POST',
            `${props.base}/notes`,
            { body: text(form, 'body'), campaignId: text(form, 'campaignId') || null },
            'Note added.',
          )
        }
      >
        <label for="note-body">Note</label>
        <textarea id="note-body" name="body" rows={3} maxLength={50000} required />
        <CampaignSelect id="note-campaign" campaigns={props.campaigns} allowNone />
      </FormSection>
    </>
  );
}

function ReviewForm(props: { base: string; assignments: Assignment[]; onDone: (t: string) => void }) {
  const w = useWrite(props.onDone);
  return (
    <FormSection
      id="review"
      title="Submit a review"
      busy={w.busy}
      submit="Submit review"
      error={w.error}
      conflict={w.conflict}
      onReload={() => props.onDone('Reloaded.')}
      onSubmit={(form) =>
        void w.write(
          'POST',
          `${props.base}/reviews`,
          {
            assignmentId: text(form, 'assignmentId'),
            verdict: text(form, 'verdict'),
            body: text(form, 'body'),
          },
          `Review submitted (${label(text(form, 'verdict'))}).`,
        )
      }
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
      <select id="review-verdict" name="verdict">
        {VERDICTS.map((v) => (
          <option key={v} value={v}>
            {label(v)}
          </option>
        ))}
      </select>
      <label for="review-body">Review</label>
      <textarea id="review-body" name="body" rows={4} maxLength={50000} required />
    </FormSection>
  );
}

function AssignForm(props: { base: string; current: string | null; onDone: (t: string) => void }) {
  const w = useWrite(props.onDone);
  return (
    <FormSection
      id="assign"
      title="Reviewer"
      busy={w.busy}
      submit="Save reviewer"
      error={w.error}
      onSubmit={(form) => {
        const due = text(form, 'dueAt');
        void w.write(
          'PUT',
          `${props.base}/reviewer`,
          {
            reviewerId: text(form, 'reviewerId').trim() || null,
            instructions: text(form, 'instructions'),
            dueAt: due ? new Date(due).toISOString() : null,
          },
          text(form, 'reviewerId').trim() ? 'Reviewer assigned.' : 'Reviewer removed.',
        );
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
    </FormSection>
  );
}

interface OwnerFormProps {
  base: string;
  topic: TopicItem;
  onDone: (t: string) => void;
  onReload: () => void;
}

function DecisionForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  const w = useWrite(props.onDone);
  return (
    <FormSection
      id="decision"
      title="Override the decision"
      busy={w.busy}
      submit="Override decision"
      error={w.error}
      conflict={w.conflict}
      onReload={() => {
        w.clearConflict();
        props.onReload();
      }}
      onSubmit={(form) =>
        void w.write(
          'POST',
          `${props.base}/decision`,
          {
            expectedDecision: props.topic.decision,
            decision: text(form, 'decision'),
            campaignId: text(form, 'campaignId'),
            reason: text(form, 'reason'),
          },
          `Decision set to ${label(text(form, 'decision'))}.`,
        )
      }
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
      <label for="decision-reason">Reason</label>
      <textarea id="decision-reason" name="reason" rows={2} maxLength={2000} required />
    </FormSection>
  );
}

function ReopenForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  const w = useWrite(props.onDone);
  return (
    <FormSection
      id="reopen"
      title="Reopen the review"
      busy={w.busy}
      submit="Reopen"
      error={w.error}
      conflict={w.conflict}
      onReload={() => {
        w.clearConflict();
        props.onReload();
      }}
      onSubmit={(form) =>
        void w.write(
          'POST',
          `${props.base}/reopen`,
          {
            expectedDecision: props.topic.decision,
            campaignId: text(form, 'campaignId'),
            reason: text(form, 'reason'),
          },
          'Review reopened.',
        )
      }
    >
      <CampaignSelect id="reopen-campaign" campaigns={props.campaigns} />
      <label for="reopen-reason">Reason</label>
      <textarea id="reopen-reason" name="reason" rows={2} maxLength={2000} required />
    </FormSection>
  );
}

function DispositionForm(props: OwnerFormProps) {
  const w = useWrite(props.onDone);
  return (
    <FormSection
      id="disposition"
      title="Disposition"
      busy={w.busy}
      submit="Change disposition"
      error={w.error}
      conflict={w.conflict}
      onReload={() => {
        w.clearConflict();
        props.onReload();
      }}
      onSubmit={(form) =>
        void w.write(
          'PUT',
          `${props.base}/disposition`,
          {
            expectedDisposition: props.topic.disposition,
            disposition: text(form, 'disposition'),
            reason: text(form, 'reason'),
          },
          `Disposition set to ${label(text(form, 'disposition'))}.`,
        )
      }
    >
      <label for="disposition-value">New disposition</label>
      <select id="disposition-value" name="disposition">
        {DISPOSITIONS.map((d) => (
          <option key={d} value={d} selected={d === props.topic.disposition}>
            {label(d)}
          </option>
        ))}
      </select>
      <label for="disposition-reason">Reason</label>
      <textarea id="disposition-reason" name="reason" rows={2} maxLength={2000} required />
    </FormSection>
  );
}
