/** The genomics API v1 records as the console reads them (field names from the published contract). */

export const DISPOSITIONS = ['ACTIVE', 'REJECTED', 'DISCARDED', 'TIMED_OUT'] as const;
export const DECISIONS = ['READY', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'] as const;
export const VERDICTS = ['COMMENT', 'READY_AS_IS', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface TopicItem {
  uid: string;
  batch: string;
  topic: string;
  title: string | null;
  category: string | null;
  workflow_status: string;
  decision: string;
  previous_decision: string | null;
  requires_re_review: boolean;
  disposition: string;
  planned_reviewer_id: string | null;
  campaign_id: string | null;
  status: string | null;
  phase: string | null;
  classification: string | null;
  client_ids: string[];
}

export interface TopicList {
  items: TopicItem[];
  next: { batch: string; topic: number } | null;
}

export interface Measurement {
  id: string;
  model_id: string;
  scope: 'original_report' | 'public_package_rerun';
  status: 'MEASURED' | 'UNAVAILABLE';
  scientific_passes: number | null;
  completed: number | null;
  pass_rate: number | null;
  measured_at: string;
  artifact_sha256: string;
  reason: string | null;
}

export interface StoredPath {
  id: string;
  title?: string | null;
  media_type?: string | null;
  path: string | null;
  size?: number | null;
  sha256: string | null;
  status?: string;
  number?: number;
  campaign_id?: string;
}

export interface Note {
  id: string;
  campaign_id: string | null;
  kind: string;
  author_id: string | null;
  body: string;
  body_sha256: string;
  edit_count: number;
  created_at: string;
  updated_at: string;
}

export interface TopicEvent {
  id: string;
  kind: string;
  actor_id: string | null;
  workflow_version: number | null;
  detail: Record<string, unknown>;
  created_at: string;
}

export interface Assignment {
  id: string;
  reviewer_id: string;
  status: string;
  instructions: string | null;
  due_at: string | null;
  created_at: string;
  submitted_at: string | null;
  closed_at: string | null;
}

export interface Campaign {
  id: string;
  name: string;
  status: string;
}
