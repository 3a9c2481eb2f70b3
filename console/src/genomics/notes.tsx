import { useState } from 'preact/hooks';
import { formatTime, useSession } from '../ui';
import type { Campaign, Note } from './types';
import { CampaignSelect, formText, submitOnCtrlEnter, WriteForm } from './writeForm';

export function Notes(props: {
  base: string;
  notes: Note[];
  campaigns: Campaign[];
  onDone: (t: string) => void;
  onReload: () => void;
}) {
  const session = useSession();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <section aria-labelledby="notes-title">
        <h2 id="notes-title">Notes</h2>
        {props.notes.length === 0 && <p class="muted">No note yet.</p>}
        <ul class="notes">
          {props.notes.map((n) => (
            <li key={n.id} data-note-id={n.id}>
              <p class="muted">
                {n.kind === 'campaign' ? `campaign ${n.campaign_id}` : 'topic'} note by member {n.author_id}
                {n.author_id === session.memberId ? ' (you)' : ''} · {formatTime(n.created_at)}
                {n.edit_count > 0 ? ` · edited ${n.edit_count}×` : ''}
              </p>
              {editing === n.id ? (
                <NoteEditForm
                  base={props.base}
                  note={n}
                  onDone={(t) => {
                    setEditing(null);
                    props.onDone(t);
                  }}
                  onReload={() => {
                    setEditing(null);
                    props.onReload();
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <>
                  <p class="note-body">{n.body}</p>
                  {/* The API lets only a note's author edit it. */}
                  {n.author_id === session.memberId && (
                    <button type="button" class="link" onClick={() => setEditing(n.id)}>
                      Edit note {n.id}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
      <WriteForm
        id="add-note"
        title="Add a note"
        submit="Add note"
        method="POST"
        path={`${props.base}/notes`}
        onDone={props.onDone}
        request={(form) => ({
          body: { body: formText(form, 'body'), campaignId: formText(form, 'campaignId') || null },
          done: 'Note added.',
        })}
      >
        <label for="note-body">Note</label>
        <textarea id="note-body" name="body" rows={3} maxLength={50000} required />
        <CampaignSelect id="note-campaign" campaigns={props.campaigns} allowNone />
      </WriteForm>
    </>
  );
}

/** Edits a note if its body is still the one shown (its SHA-256 is sent as the precondition; else a 409). */
function NoteEditForm(props: {
  base: string;
  note: Note;
  onDone: (t: string) => void;
  onReload: () => void;
  onCancel: () => void;
}) {
  const id = `note-edit-${props.note.id}`;
  return (
    <WriteForm
      id={id}
      title={`Edit note ${props.note.id}`}
      heading="h3"
      submit="Save note"
      method="PUT"
      path={`${props.base}/notes/${encodeURIComponent(props.note.id)}`}
      onDone={props.onDone}
      onReload={props.onReload}
      changed="Someone changed this note"
      request={(form) => ({
        body: { body: formText(form, 'body'), expectedBodySha256: props.note.body_sha256 },
        done: `Note ${props.note.id} edited.`,
      })}
      extra={
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      }
    >
      <label for={`${id}-body`}>Note text</label>
      <textarea
        id={`${id}-body`}
        name="body"
        rows={4}
        maxLength={50000}
        required
        defaultValue={props.note.body}
        onKeyDown={submitOnCtrlEnter}
        autoFocus
      />
    </WriteForm>
  );
}
