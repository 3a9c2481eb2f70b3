import { useEffect, useRef, useState } from 'preact/hooks';
import type { MathRequest } from '../contract/types';
import { ApiError, getJson, IntentKey, writeJson } from '../rest';
import { navigate } from '../router';
import { label, setFlash, takeFlash } from '../ui';
import { nextInStream, streamQueuePath } from './stream';
import type { Decision, Task, TaskWithWorkflow, Workflow } from './types';

/** An action as the task page sends it; the workflow version it acted on is added when it is sent. */
type TaskAction = Omit<MathRequest<'/api/math/tasks/{task_id}', 'post'>, 'version'>;

/** What a 409 found: the workflow the reviewer acted on, and the one the server holds now. */
export interface Conflict {
  problem: ApiError;
  before: Workflow;
  now: TaskWithWorkflow;
}

/** The verdicts' single keys and their buttons. */
export const VERDICT_KEYS: Array<{ key: string; decision: Decision; text: string }> = [
  { key: 'a', decision: 'ACCEPTED', text: 'Accept' },
  { key: 'n', decision: 'NEEDS_REVISION', text: 'Needs revision' },
  { key: 'x', decision: 'REJECTED', text: 'Reject' },
];

const taskPath = (taskId: string) => `/api/math/tasks/${encodeURIComponent(taskId)}`;

async function loadTask(taskId: string): Promise<TaskWithWorkflow> {
  const path = taskPath(taskId);
  const [task, workflow] = await Promise.all([getJson<Task>(path), getJson<Workflow>(`${path}/workflow`)]);
  return { task, workflow };
}

export interface LoadedTask {
  /** Null while the task loads (and after a failed load). */
  data: TaskWithWorkflow | null;
  loadError: ApiError | null;
  show: (data: TaskWithWorkflow) => void;
  reload: () => void;
}

/** The task and its workflow, loaded afresh whenever the page opens on a task. */
export function useTask(taskId: string): LoadedTask {
  const [data, setData] = useState<TaskWithWorkflow | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const reload = () => {
    loadTask(taskId).then(setData, setLoadError);
  };
  useEffect(() => {
    setData(null);
    setLoadError(null);
    reload();
  }, [taskId]);
  return { data, loadError, show: setData, reload };
}

/**
 * The review of the loaded task: the comment being written and the verdict chosen for it, the actions the
 * workflow allows, and what the last one did (a notice, an error, or a 409's conflict). After a verdict the page
 * moves on to the next task of the queue the reviewer came from.
 */
export function useTaskActions(taskId: string, loaded: LoadedTask) {
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState<Decision | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const intent = useRef(new IntentKey());
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const { data } = loaded;

  useEffect(() => {
    setConflict(null);
    setActionError(null);
    setComment('');
    setPending(null);
    setNotice(takeFlash());
  }, [taskId]);

  const allowed = new Set(data?.workflow.allowed_actions ?? []);

  const act = async (body: TaskAction) => {
    if (!data || busy) return;
    const request = { version: data.workflow.version, ...body };
    const key = intent.current.for({ taskId, request });
    setBusy(true);
    setActionError(null);
    try {
      const result = await writeJson<TaskWithWorkflow>('POST', taskPath(taskId), request, key);
      intent.current.settled();
      loaded.show(result);
      setComment('');
      setPending(null);
      const done = `${label(body.action)}${body.decision ? ` (${label(body.decision)})` : ''} recorded on ${taskId} at version ${result.workflow.version}.`;
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
        const now = await loadTask(taskId).catch(() => null);
        if (now) setConflict({ problem, before: data.workflow, now });
        else setActionError(problem);
      } else setActionError(problem);
    } finally {
      setBusy(false);
    }
  };
  // act reports its own failure (actionError, conflict): the buttons and keys only start it.
  const send = (body: TaskAction) => void act(body);

  /** Sends an action that needs the comment, or asks for one. */
  const withComment = (action: 'feedback' | 'reopen') => {
    if (comment.trim()) send({ action, comment });
    else {
      setActionError(new ApiError({ status: 0, title: 'Comment needed', detail: 'Write a comment first.' }));
      commentBox.current?.focus();
    }
  };
  /** Chooses a verdict: sent at once when the comment is written, else once it is (Ctrl+Enter). */
  const verdict = (decision: Decision) => {
    setPending(decision);
    if (comment.trim()) send({ action: 'verdict', decision, comment });
    else commentBox.current?.focus();
  };
  const writeFeedback = () => {
    setPending(null);
    commentBox.current?.focus();
  };
  /** Shows the task as the server holds it: after a 409, the version the conflict found. */
  const reload = () => {
    if (conflict) {
      loaded.show(conflict.now);
      setConflict(null);
      return;
    }
    loaded.reload();
  };
  const skip = async () => {
    const next = await nextInStream(taskId).catch(() => null);
    if (next && next !== taskId) navigate(`/math/tasks/${encodeURIComponent(next)}`);
  };
  /** Ctrl+Enter sends the chosen verdict, else the comment as feedback; Escape leaves the text field. */
  const onCommentKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') (event.target as HTMLElement).blur();
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    if (pending && allowed.has('verdict')) send({ action: 'verdict', decision: pending, comment });
    else if (allowed.has('feedback')) withComment('feedback');
  };

  return {
    allowed,
    busy,
    notice,
    actionError,
    conflict,
    comment,
    setComment,
    pending,
    commentBox,
    send,
    withComment,
    verdict,
    writeFeedback,
    reload,
    // skip catches its own failure (no next task: stay).
    skip: () => void skip(),
    onCommentKey,
  };
}

export type TaskActions = ReturnType<typeof useTaskActions>;
