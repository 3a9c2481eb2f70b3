import type { SearchAttributePair } from '@temporalio/common';
import {
  MathArchived,
  MathAssignee,
  MathClient,
  MathDecision,
  MathReviewState,
  MathRun,
} from '../searchAttributes';
import type { MathTaskState } from './state';

/** Workflow id of a math task: a pure function of the business key, so every process finds the same one. */
export const mathTaskWorkflowId = (taskId: string): string => `math-task/${taskId}`;

/** Search attributes of a task workflow in a given state; what operators filter on in the Temporal UI. */
export function mathSearchAttributes(state: MathTaskState, runId?: string): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [
    { key: MathReviewState, value: state.reviewState },
    { key: MathDecision, value: state.decision ?? 'NONE' },
    { key: MathAssignee, value: state.assigneeId ?? 'unassigned' },
    { key: MathClient, value: state.clientId ?? 'none' },
    { key: MathArchived, value: state.archived },
  ];
  if (runId) pairs.push(mathRunSearchAttribute(runId));
  return pairs;
}

/** The run a task was imported with: set at start, never changed by a transition. */
export const mathRunSearchAttribute = (runId: string): SearchAttributePair => ({
  key: MathRun,
  value: runId,
});
