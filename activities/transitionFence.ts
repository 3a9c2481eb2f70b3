import { ApplicationFailure } from '@temporalio/activity';

/**
 * What a transition persisted inside its update's workflow task carries besides the transition itself, so that a
 * write its workflow never recorded can be told from one it did (docs/decisions-system.md, "Transitions persisted in the
 * update's workflow task").
 */
export interface TransitionFence {
  /**
   * Start time of the workflow task that decided the transition (the workflow's clock, Temporal's server time), ISO.
   * A later workflow task of the same workflow always starts later, so it orders competing workflow tasks.
   */
  workflowTaskTime: string;
  workflowId: string;
  /** The math task id or the genomics topic uid, as `projection_repairs` names the subject. */
  subjectId: string;
}

/** A transition found in the projection above the version the workflow is at: never recorded by the workflow. */
export interface WrittenTransition {
  version: number;
  updateId: string;
  /** Null for an event no task workflow wrote (rows seeded outside Temporal): never replaced. */
  workflowTaskTime: Date | null;
  /** The transition's event, as the audit keeps it. */
  event: Record<string, unknown>;
}

/**
 * Refuses to replace written transitions unless each was decided by an earlier workflow task than this one. A
 * writer whose workflow task is older than one that wrote after it is itself superseded: Temporal will refuse its
 * task's completion, so it must not touch what the newer task wrote (which may have been acknowledged).
 */
export function assertSupersedes(written: WrittenTransition[], fence: TransitionFence): void {
  const mine = Date.parse(fence.workflowTaskTime);
  const newer = written.find((w) => w.workflowTaskTime === null || w.workflowTaskTime.getTime() >= mine);
  if (newer) {
    throw ApplicationFailure.nonRetryable(
      `${fence.workflowId}: version ${newer.version} was written by update ${newer.updateId} of a workflow task ` +
        `no older than this one (${fence.workflowTaskTime}); this workflow task is superseded`,
      'superseded_workflow_task',
    );
  }
}

export const projectionDiverged = (subject: string, previousVersion: number) =>
  ApplicationFailure.nonRetryable(
    `Projection of ${subject} is not at version ${previousVersion}`,
    'projection_diverged',
  );
