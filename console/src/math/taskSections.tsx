import { useEffect, useState } from 'preact/hooks';
import { type ApiError, getJson } from '../rest';
import { FilePreview, formatBytes } from '../preview';
import { formatTime, label, mayUse, type Session, StateBadge } from '../ui';
import type { Conflict } from './taskActions';
import type { Attachment, RunPath, Task, Workflow } from './types';

/** Names a member: the workflow's reviewer choices, the signed-in member as "(you)", else by id. */
export type MemberName = (id: string | null) => string;

/** The task's report, previewed when the key may read files. */
export function ReportSection({ task, session }: { task: Task; session: Session }) {
  return (
    <section aria-labelledby="report-title">
      <h2 id="report-title">Report</h2>
      {task.report ? (
        mayUse(session, 'files:read') ? (
          <FilePreview
            path={`/api/math/artifacts/${encodeURIComponent(task.report.artifact_id)}/download`}
            label={`report ${task.report.report_id}`}
          />
        ) : (
          <p class="muted">This key lacks the files:read scope: the report cannot be shown.</p>
        )
      ) : (
        <p class="muted">This task has no report mapping.</p>
      )}
    </section>
  );
}

/** Where the task's review stands. */
export function WorkflowFacts({ workflow, who }: { workflow: Workflow; who: MemberName }) {
  return (
    <section aria-labelledby="state-title">
      <h2 id="state-title">Workflow</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd data-testid="review-state">
          <StateBadge value={workflow.review_state} />
        </dd>
        <dt>Decision</dt>
        <dd data-testid="decision">
          <StateBadge value={workflow.decision} />
        </dd>
        <dt>Version</dt>
        <dd>{workflow.version}</dd>
        <dt>Assignee</dt>
        <dd>{who(workflow.assignee_id)}</dd>
        {workflow.archived && (
          <>
            <dt>Archived</dt>
            <dd>yes (read-only until restored)</dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** The workflow fields a conflict compares, as the note names them. */
const WATCHED: Array<[keyof Workflow, string]> = [
  ['review_state', 'Review state'],
  ['decision', 'Decision'],
  ['assignee_id', 'Assignee'],
  ['client_id', 'Client'],
  ['archived', 'Archived'],
];

/** A 409: what changed since the reviewer loaded the task, and the way back to the current version. */
export function ConflictNote({
  conflict,
  who,
  onReload,
}: {
  conflict: Conflict;
  who: MemberName;
  onReload: () => void;
}) {
  const { before, now } = conflict;
  const show = (field: keyof Workflow, value: unknown) =>
    field === 'assignee_id' ? who(value as string | null) : value === null ? '—' : String(value);
  const changes = WATCHED.filter(([field]) => before[field] !== now.workflow[field]);
  const events = now.workflow.events.filter((e) => e.version > before.version);
  return (
    <div class="conflict" role="alert" data-testid="conflict">
      <h2>This task changed since you opened it</h2>
      <p>
        {conflict.problem.problem.detail ?? conflict.problem.message} You saw version {before.version}; it is
        now at version {now.workflow.version}. Your comment is kept.
      </p>
      {changes.length > 0 && (
        <ul>
          {changes.map(([field, name]) => (
            <li key={field}>
              {name}: {show(field, before[field])} → <strong>{show(field, now.workflow[field])}</strong>
            </li>
          ))}
        </ul>
      )}
      {events.length > 0 && (
        <ul>
          {events.map((e) => (
            <li key={e.id}>
              v{e.version} {e.action} by {who(e.actor_id)} at {formatTime(e.created_at)}
              {e.comment ? `: “${e.comment}”` : ''}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={onReload}>
        Reload the task <kbd>r</kbd>
      </button>
    </div>
  );
}

export function History({ workflow, who }: { workflow: Workflow; who: MemberName }) {
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {workflow.events.length === 0 && <p class="muted">No workflow action yet.</p>}
      <ol class="history" reversed>
        {workflow.events.map((e) => (
          <li key={e.id}>
            <span class="event-head">
              v{e.version} <strong>{e.action}</strong> by {who(e.actor_id)}
            </span>
            <span class="muted">
              {' '}
              {label(e.from_state)} → {label(e.to_state)} · {formatTime(e.created_at)}
            </span>
            {typeof e.detail.decision === 'string' && <span> · {label(e.detail.decision)}</span>}
            {e.comment && <blockquote>{e.comment}</blockquote>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The task's attachments, each previewed on request; nothing is shown when there is none or they fail. */
export function Attachments({ taskId }: { taskId: string }) {
  const [items, setItems] = useState<Attachment[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    getJson<{ attachments: Attachment[] }>(`/api/math/tasks/${encodeURIComponent(taskId)}/attachments`).then(
      (r) => setItems(r.attachments),
      setError,
    );
  }, [taskId]);
  if (error) return null;
  if (!items || items.length === 0) return null;
  return (
    <section aria-labelledby="attachments-title">
      <h2 id="attachments-title">Attachments</h2>
      <ul class="files">
        {items.map((a) => {
          // An upload without X-Filename has no name.
          const name = a.filename ?? 'unnamed attachment';
          return (
            <li key={a.attachment_id}>
              <span>
                {name} · {a.media_type} · {formatBytes(a.size_bytes)} · uploaded {formatTime(a.created_at)}
              </span>
              <FilePreview path={a.download_url} label={name} lazy />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The run's artifacts an operator may read, each previewed on request. */
export function RunArtifacts({ runId }: { runId: string }) {
  const [paths, setPaths] = useState<RunPath[] | null>(null);
  useEffect(() => {
    getJson<{ paths: RunPath[] }>(`/api/math/runs/${encodeURIComponent(runId)}/paths`).then(
      (r) => setPaths(r.paths),
      () => setPaths([]),
    );
  }, [runId]);
  if (!paths || paths.length === 0) return null;
  return (
    <section aria-labelledby="artifacts-title">
      <h2 id="artifacts-title">Run artifacts</h2>
      <ul class="files">
        {paths.map((p) => (
          <li key={p.artifact_id}>
            <span>
              <code>{p.source_path}</code> · {label(p.kind)} · {p.media_type} · {formatBytes(p.size_bytes)}
            </span>
            <span class="hash">sha256 {p.sha256}</span>
            <FilePreview path={p.download_url} label={p.filename} lazy />
          </li>
        ))}
      </ul>
    </section>
  );
}
