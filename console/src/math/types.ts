/** The math API's records as the console reads them, taken from the published contract's generated types. */
import { type MathResponse, valuesOf } from '../contract/types';

export type Task = MathResponse<'/api/math/tasks/{task_id}'>;
export type TaskPage = MathResponse<'/api/math/tasks'>;
export type Reviewer = MathResponse<'/api/reviewers'>['reviewers'][number];
export type Attachment = MathResponse<'/api/math/tasks/{task_id}/attachments'>['attachments'][number];
export type RunPath = MathResponse<'/api/math/runs/{run_id}/paths'>['paths'][number];
export type MathSession = MathResponse<'/api/auth/session'>;

type ContractWorkflow = MathResponse<'/api/math/tasks/{task_id}/workflow'>;
type Choice = ContractWorkflow['reviewer_choices'][number];
/**
 * The contract promises a choice's `id` and `enabled` and leaves it open to more; the API adds the name an
 * operator picks by, which the console shows.
 */
export type Workflow = Omit<ContractWorkflow, 'reviewer_choices' | 'client_choices'> & {
  reviewer_choices: Array<Choice & { display_name: string }>;
  client_choices: Array<Choice & { name: string }>;
};
/** A task and its workflow: what an action answers (POST /api/math/tasks/{task_id}), what the task page loads. */
export interface TaskWithWorkflow {
  task: Task;
  workflow: Workflow;
}

export type Decision = NonNullable<Task['decision']>;
export const REVIEW_STATES = valuesOf<Task['review_state']>({
  UNASSIGNED: true,
  ASSIGNED: true,
  IN_REVIEW: true,
  COMPLETED: true,
});
export const DECISIONS = valuesOf<Decision>({ ACCEPTED: true, NEEDS_REVISION: true, REJECTED: true });
