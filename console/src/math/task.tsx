import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, getJson, IntentKey, writeJson } from '../rest';
import { useShortcuts } from '../keyboard';
import { FilePreview, formatBytes } from '../preview';
import { linkProps, navigate } from '../router';
import {
  formatTime,
  isOperator,
  label,
  mayUse,
  Notice,
  ProblemNote,
  setFlash,
  StateBadge,
  takeFlash,
  useSession,
} from '../ui';
import { nextInStream, streamQueuePath } from './stream';
import {
  type Attachment,
  type Decision,
  type RunPath,
  type Task,
  type TaskWithWorkflow,
  type Workflow,
} from './types';

/** What a 409 found: the workflow the reviewer acted on, and the one the server holds now. */
interface Conflict {
  problem: ApiError;
  before: Workflow;
  now: TaskWithWorkflow;
}

const VERDICT_KEYS: Array<{ key: string; decision: Decision; text: string }> = [
  { key: 'a', decision: 'ACCEPTED', text: 'Accept' },
  { key: 'n', decision: 'NEEDS_REVISION', text: 'Needs revision' },
  { key: 'x', decision: 'REJECTED', text: 'Reject' },
];

const load = async (taskId: string): Promise<TaskWithWorkflow> => {
  const path = `/api/math/tasks/${encodeURIComponent(taskId)}`;
  const [task, workflow] = await Promise.all([getJson<Task>(path), getJson<Workflow>(`${path}/workflow`)]);
  return { task, workflow };
};

export function TaskPage({ taskId }: { taskId: string; query: URLSearchParams }) {
  const session = useSession();
  const operator = isOperator(session);
  const [data, setData] = useState<TaskWithWorkflow | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState<Decision | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [assignee, setAssignee] = useState('');
  const [client, setClient] = useState('');
  const intent = useRef(new IntentKey());
  const commentBox = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setData(null);
    setLoadError(null);
    setConflict(null);
    setActionError(null);
    setComment('');
    setPending(null);
    setNotice(takeFlash());
    load(taskId).then(setData, setLoadError);
  }, [taskId]);

  const allowed = new Set(data?.workflow.allowed_actions ?? []);

  const act = async (body: Record<string, unknown>) => {
    if (!data || busy) return;
    const request = { version: data.workflow.version, ...body };
    const key = intent.current.for({ taskId, request });
    setBusy(true);
    setActionError(null);
    try {
      const result = await writeJson<TaskWithWorkflow>(
        'POST',
        `/api/math/tasks/${encodeURIComponent(taskId)}`,
        request,
        key,
      );
      intent.current.settled();
      setData(result);
      setComment('');
      setPending(null);
      const done = `${label(String(body.action))}${body.decision ? ` (${label(String(body.decision))})` : ''} recorded on ${taskId} at version ${result.workflow.version}.`;
      if (body.action === 'verdict') {
        const next = await nextInStream(taskId).catch(() => null);
        if (next && next !== taskId) {
          setFlash(`${done} Next task opened.`);
          navigate(`/math/tasks/${encodeURIComponent(next)}`);
          return;
        }
        setFlash(`${done} That was the last task of the queue.`);
        navigate(streamQueuePath());
        return;
      }
      setNotice(done);
    } catch (error) {
      const problem = error as ApiError;
      if (problem.status === 409) {
        const now = await load(taskId).catch(() => null);
        if (now) setConflict({ problem, before: data.workflow, now });
        else setActionError(problem);
      } else setActionError(problem);
    } finally {
      setBusy(false);
    }
  };

  const needsComment = (then: () => void) => {
    if (comment.trim()) then();
    else {
      setActionError(new ApiError({ status: 0, title: 'Comment needed', detail: 'Write a comment first.' }));
      commentBox.current?.focus();
    }
  };
  const verdict = (decision: Decision) => {
    setPending(decision);
    if (comment.trim()) void act({ action: 'verdict', decision, comment });
    else commentBox.current?.focus();
  };
  const reload = () => {
    if (conflict) {
      setData(conflict.now);
      setConflict(null);
      return;
    }
    load(taskId).then(setData, setLoadError);
  };
  const skip = async () => {
    const next = await nextInStream(taskId).catch(() => null);
    if (next && next !== taskId) navigate(`/math/tasks/${encodeURIComponent(next)}`);
  };

  const verdictAllowed = allowed.has('verdict') && !conflict;
  useShortcuts([
    ...VERDICT_KEYS.map((v) => ({
      key: v.key,
      label: `Verdict: ${v.text.toLowerCase()} (then write the comment and press Ctrl+Enter)`,
      run: () => verdict(v.decision),
      enabled: verdictAllowed,
    })),
    {
      key: 's',
      label: 'Start the review',
      run: () => void act({ action: 'start' }),
      enabled: allowed.has('start'),
    },
    {
      key: 'f',
      label: 'Write feedback (Ctrl+Enter sends it)',
      run: () => {
        setPending(null);
        commentBox.current?.focus();
      },
      enabled: allowed.has('feedback'),
    },
    { key: 'r', label: 'Reload the task', run: reload },
    { key: 'j', label: 'Skip to the next task of the queue', run: () => void skip() },
    { key: 'u', label: 'Back to the queue', run: () => navigate(streamQueuePath()) },
  ]);

  const onCommentKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') (event.target as HTMLElement).blur();
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    if (pending && allowed.has('verdict')) void act({ action: 'verdict', decision: pending, comment });
    else if (allowed.has('feedback')) needsComment(() => void act({ action: 'feedback', comment }));
  };

  if (loadError)
    return (
      <section>
        <p>
          <a {...linkProps(streamQueuePath())}>← Queue</a>
        </p>
        <ProblemNote error={loadError} />
      </section>
    );
  if (!data) return <p class="muted">Loading {taskId}…</p>;
  const { task, workflow } = data;
  const names = new Map<string, string>(workflow.reviewer_choices.map((c) => [c.id, c.display_name]));
  names.set(session.memberId, `${session.name} (you)`);
  const who = (id: string | null) => (id ? (names.get(id) ?? `member ${id}`) : 'nobody');

  return (
    <article aria-labelledby="task-title" data-task-id={task.task_id} data-version={workflow.version}>
      <p class="crumbs">
        <a {...linkProps(streamQueuePath())}>← Queue</a> <span class="muted">(u)</span>
      </p>
      <h1 id="task-title">{task.title || task.task_id}</h1>
      <p class="meta">
        <code>{task.task_id}</code> · run <code>{task.run_id}</code> · question{' '}
        <code>{task.question_id}</code> · topic <code>{task.topic_id}</code>
      </p>
      <Notice text={notice} />
      {conflict && <ConflictNote conflict={conflict} who={who} onReload={reload} />}
      <div class="columns">
        <div class="main-column">
          <section aria-labelledby="problem-title">
            <h2 id="problem-title">Problem</h2>
            <p class="problem-text">{task.problem}</p>
          </section>
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
          {mayUse(session, 'files:read') && <Attachments taskId={task.task_id} />}
          {operator && mayUse(session, 'paths:read') && <RunArtifacts runId={task.run_id} />}
        </div>
        <aside class="side-column" aria-label="Review">
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
          <section aria-labelledby="actions-title" class="actions">
            <h2 id="actions-title">Actions</h2>
            {workflow.allowed_actions.length === 0 && (
              <p class="muted">No action is open to you on this task now.</p>
            )}
            {allowed.has('start') && (
              <button
                type="button"
                disabled={busy || !!conflict}
                onClick={() => void act({ action: 'start' })}
              >
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
                  ref={commentBox}
                  rows={4}
                  maxLength={10000}
                  value={comment}
                  onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)}
                  onKeyDown={onCommentKey}
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
                    disabled={busy || !!conflict}
                    onClick={() => verdict(v.decision)}
                  >
                    {v.text} <kbd>{v.key}</kbd>
                  </button>
                ))}
              </div>
            )}
            {allowed.has('feedback') && (
              <button
                type="button"
                disabled={busy || !!conflict}
                onClick={() => needsComment(() => void act({ action: 'feedback', comment }))}
              >
                Send feedback
              </button>
            )}
            {allowed.has('reopen') && (
              <button
                type="button"
                disabled={busy || !!conflict}
                onClick={() => needsComment(() => void act({ action: 'reopen', comment }))}
              >
                Reopen review
              </button>
            )}
            {allowed.has('assign') && (
              <div class="inline-form">
                <label for="assignee">Assign to</label>
                <select
                  id="assignee"
                  value={assignee}
                  onChange={(e) => setAssignee((e.target as HTMLSelectElement).value)}
                >
                  <option value="">nobody (unassign)</option>
                  {workflow.reviewer_choices.map((c) => (
                    <option key={c.id} value={c.id} disabled={!c.enabled}>
                      {c.display_name}
                      {c.enabled ? '' : ' (disabled)'}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  disabled={busy || !!conflict}
                  onClick={() => void act({ action: 'assign', assignee_id: assignee || null })}
                >
                  Assign
                </button>
              </div>
            )}
            {allowed.has('client') && (
              <div class="inline-form">
                <label for="client">Client</label>
                <select
                  id="client"
                  value={client}
                  onChange={(e) => setClient((e.target as HTMLSelectElement).value)}
                >
                  <option value="">none</option>
                  {workflow.client_choices.map((c) => (
                    <option key={c.id} value={c.id} disabled={!c.enabled}>
                      {c.name}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  disabled={busy || !!conflict}
                  onClick={() => void act({ action: 'client', client_id: client || null })}
                >
                  Set client
                </button>
              </div>
            )}
            {allowed.has('archive') && (
              <button
                type="button"
                disabled={busy || !!conflict}
                onClick={() => void act({ action: 'archive', comment: comment.trim() ? comment : null })}
              >
                Archive
              </button>
            )}
            {allowed.has('restore') && (
              <button
                type="button"
                disabled={busy || !!conflict}
                onClick={() => void act({ action: 'restore', comment: comment.trim() ? comment : null })}
              >
                Restore
              </button>
            )}
            {actionError && <ProblemNote error={actionError} />}
          </section>
          <History workflow={workflow} who={who} />
        </aside>
      </div>
    </article>
  );
}

const WATCHED: Array<[keyof Workflow, string]> = [
  ['review_state', 'Review state'],
  ['decision', 'Decision'],
  ['assignee_id', 'Assignee'],
  ['client_id', 'Client'],
  ['archived', 'Archived'],
];

function ConflictNote({
  conflict,
  who,
  onReload,
}: {
  conflict: Conflict;
  who: (id: string | null) => string;
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

function History({ workflow, who }: { workflow: Workflow; who: (id: string | null) => string }) {
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

function Attachments({ taskId }: { taskId: string }) {
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

function RunArtifacts({ runId }: { runId: string }) {
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
