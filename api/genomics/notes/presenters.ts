import type { NoteRow } from './queries';

/** A topic note (`campaign_id` null) or a campaign note. */
export const presentNote = (n: NoteRow) => ({
  id: n.id,
  campaign_id: n.campaign_id,
  kind: n.campaign_id === null ? 'topic' : 'campaign',
  author_id: n.author_id,
  body: n.body,
  body_sha256: n.body_sha256,
  edit_count: n.edit_count,
  created_at: n.created_at.toISOString(),
  updated_at: n.updated_at.toISOString(),
});
