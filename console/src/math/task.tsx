import { linkProps } from '../router';
import { isOperator, mayUse, Notice, ProblemNote, type Session, useSession } from '../ui';
import { ReviewActions } from './reviewActions';
import { streamQueuePath } from './stream';
import { useTask, useTaskActions } from './taskActions';
import {
  Attachments,
  ConflictNote,
  History,
  type MemberName,
  ReportSection,
  RunArtifacts,
  WorkflowFacts,
} from './taskSections';
import { useTaskShortcuts } from './taskShortcuts';
import type { Workflow } from './types';

/**
 * A task: its problem, report, attachments and (for operators) run artifacts beside the workflow, the actions
 * open to the signed-in member and the history. Keys drive the review; a verdict opens the next task of the queue.
 */
export function TaskPage({ taskId }: { taskId: string; query: URLSearchParams }) {
  const session = useSession();
  const loaded = useTask(taskId);
  const review = useTaskActions(taskId, loaded);
  useTaskShortcuts(review);

  if (loaded.loadError)
    return (
      <section>
        <p>
          <a {...linkProps(streamQueuePath())}>← Queue</a>
        </p>
        <ProblemNote error={loaded.loadError} />
      </section>
    );
  if (!loaded.data) return <p class="muted">Loading {taskId}…</p>;
  const { task, workflow } = loaded.data;
  const who = memberNames(workflow, session);

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
      <Notice text={review.notice} />
      {review.conflict && <ConflictNote conflict={review.conflict} who={who} onReload={review.reload} />}
      <div class="columns">
        <div class="main-column">
          <section aria-labelledby="problem-title">
            <h2 id="problem-title">Problem</h2>
            <p class="problem-text">{task.problem}</p>
          </section>
          <ReportSection task={task} session={session} />
          {mayUse(session, 'files:read') && <Attachments taskId={task.task_id} />}
          {isOperator(session) && mayUse(session, 'paths:read') && <RunArtifacts runId={task.run_id} />}
        </div>
        <aside class="side-column" aria-label="Review">
          <WorkflowFacts workflow={workflow} who={who} />
          <ReviewActions workflow={workflow} review={review} />
          <History workflow={workflow} who={who} />
        </aside>
      </div>
    </article>
  );
}

function memberNames(workflow: Workflow, session: Session): MemberName {
  const names = new Map<string, string>(workflow.reviewer_choices.map((c) => [c.id, c.display_name]));
  names.set(session.memberId, `${session.name} (you)`);
  return (id) => (id ? (names.get(id) ?? `member ${id}`) : 'nobody');
}
