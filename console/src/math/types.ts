/** The math API's records as the console reads them (field names from the published contract). */

export const REVIEW_STATES = ['UNASSIGNED', 'ASSIGNED', 'IN_REVIEW', 'COMPLETED'] as const;
export const DECISIONS = ['ACCEPTED', 'NEEDS_REVISION', 'REJECTED'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Task {
  task_id: string;
  run_id: string;
  topic_id: string;
  question_id: string;
  title: string;
  problem: string;
  report: { report_id: string; artifact_id: string; source_id: string | null } | null;
  review_state: string;
  decision: string | null;
  assignee_id: string | null;
  client_id: string | null;
  archived: boolean;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface ReviewStatus {
  total: number;
  archived: number;
  unassigned: number;
  review_states: Record<string, number>;
  decisions: Record<string, number>;
}

export interface TaskPage {
  items: Task[];
  page: number;
  page_size: number;
  total: number;
  counts: ReviewStatus;
}

export interface WorkflowEvent {
  id: string;
  version: number;
  action: string;
  actor_id: string | null;
  comment: string | null;
  from_state: string;
  to_state: string;
  detail: Record<string, unknown>;
  created_at: string;
}

export interface Workflow {
  task_id: string;
  version: number;
  review_state: string;
  decision: string | null;
  assignee_id: string | null;
  client_id: string | null;
  archived: boolean;
  allowed_actions: string[];
  reviewer_choices: Array<{ id: string; display_name: string; enabled: boolean }>;
  client_choices: Array<{ id: string; name: string; enabled: boolean }>;
  events: WorkflowEvent[];
}

export interface Reviewer {
  id: string;
  display_name: string;
  enabled: boolean;
}
