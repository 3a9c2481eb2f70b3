import { formatTime, label, StateBadge } from '../ui';
import type { Assignment, Measurement, StoredPath, TopicDetail, TopicEvent } from './types';

/** What a topic is and where its review stands. */
export function TopicFacts({ detail }: { detail: TopicDetail }) {
  const { topic } = detail;
  return (
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
  );
}

export function AssignmentList({ assignments, memberId }: { assignments: Assignment[]; memberId: string }) {
  return (
    <section aria-labelledby="assignments-title">
      <h2 id="assignments-title">Assignments</h2>
      {assignments.length === 0 && <p class="muted">No reviewer assigned yet.</p>}
      <ul class="plain">
        {assignments.map((a) => (
          <li key={a.id}>
            #{a.id} · member {a.reviewer_id}
            {a.reviewer_id === memberId ? ' (you)' : ''} · {label(a.status)}
            {a.due_at ? ` · due ${formatTime(a.due_at)}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TopicHistory({ events }: { events: TopicEvent[] }) {
  return (
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

export function MeasurementColumn(props: {
  scope: Measurement['scope'];
  title: string;
  items: Measurement[];
}) {
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

export function PathTable({ caption, rows }: { caption: string; rows: StoredPath[] }) {
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
