import type { CampaignRow, ClientRow, TopicRow } from './queries';
import type { EXCLUSIVITIES } from './schemas';

/** Exclusivity follows the topic's client links: none, exactly one (exclusive) or several (shared). */
export const exclusivityOf = (clientIds: string[]): (typeof EXCLUSIVITIES)[number] =>
  clientIds.length === 0 ? 'NONE' : clientIds.length === 1 ? 'EXCLUSIVE' : 'SHARED';

/** The task / topic list item: every field of the spec's table, listed here and nowhere else. */
export function presentTopicItem(t: TopicRow) {
  return {
    uid: t.uid,
    batch: t.batch,
    topic: t.topic,
    title: t.title,
    category: t.category,
    workflow_status: t.workflow_status,
    decision: t.decision,
    previous_decision: t.previous_decision,
    requires_re_review: t.requires_re_review,
    decision_campaign_id: t.decision_campaign_id,
    submission_campaign_id: t.submission_campaign_id,
    disposition: t.disposition,
    planned_reviewer_id: t.planned_reviewer_id,
    current_package_version_id: t.current_package_version_id,
    deliverable_selection_revision: t.deliverable_selection_revision,
    client_ids: t.client_ids,
    exclusivity: exclusivityOf(t.client_ids),
    campaign_id: t.campaign_id,
    status: t.status,
    phase: t.phase,
    classification: t.classification,
    tags: t.tags,
  };
}

export const presentCampaign = (c: CampaignRow) => ({
  id: c.id,
  name: c.name,
  status: c.status,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export const presentClient = (c: ClientRow) => ({
  id: c.id,
  name: c.name,
  enabled: c.enabled,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});
