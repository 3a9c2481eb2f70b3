import { label } from '../ui';
import { type Campaign, DECISIONS, DISPOSITIONS, type TopicItem } from './types';
import { CampaignSelect, formText, ReasonField, WriteForm } from './writeForm';

function AssignForm(props: { base: string; current: string | null; onDone: (t: string) => void }) {
  return (
    <WriteForm
      id="assign"
      title="Reviewer"
      submit="Save reviewer"
      method="PUT"
      path={`${props.base}/reviewer`}
      onDone={props.onDone}
      request={(form) => {
        const due = formText(form, 'dueAt');
        const reviewerId = formText(form, 'reviewerId').trim() || null;
        return {
          body: {
            reviewerId,
            instructions: formText(form, 'instructions'),
            dueAt: due ? new Date(due).toISOString() : null,
          },
          done: reviewerId ? 'Reviewer assigned.' : 'Reviewer removed.',
        };
      }}
    >
      <label for="assign-reviewer">Reviewer member id (empty removes)</label>
      <input
        id="assign-reviewer"
        name="reviewerId"
        inputMode="numeric"
        pattern="[1-9][0-9]{0,18}"
        defaultValue={props.current ?? ''}
      />
      <label for="assign-instructions">Instructions</label>
      <textarea id="assign-instructions" name="instructions" rows={2} maxLength={10000} />
      <label for="assign-due">Due (your local time, optional)</label>
      <input id="assign-due" name="dueAt" type="datetime-local" />
    </WriteForm>
  );
}

/** What an Owner or Admin may do to a topic: plan its reviewer, override its decision, reopen it, dispose of it. */
export function OwnerForms(props: OwnerFormProps & { campaigns: Campaign[] }) {
  return (
    <>
      <AssignForm base={props.base} current={props.topic.planned_reviewer_id} onDone={props.onDone} />
      <DecisionForm {...props} />
      <ReopenForm {...props} />
      <DispositionForm {...props} />
    </>
  );
}

interface OwnerFormProps {
  base: string;
  topic: TopicItem;
  onDone: (t: string) => void;
  onReload: () => void;
}

/** Where an owner's form writes, and what it does when done or after a 409. */
const ownerWrite = (props: OwnerFormProps, path: string) => ({
  path: `${props.base}/${path}`,
  onDone: props.onDone,
  onReload: props.onReload,
});

function DecisionForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  return (
    <WriteForm
      id="decision"
      title="Override the decision"
      submit="Override decision"
      method="POST"
      {...ownerWrite(props, 'decision')}
      request={(form) => ({
        body: {
          expectedDecision: props.topic.decision,
          decision: formText(form, 'decision'),
          campaignId: formText(form, 'campaignId'),
          reason: formText(form, 'reason'),
        },
        done: `Decision set to ${label(formText(form, 'decision'))}.`,
      })}
    >
      <p class="muted">Current: {label(props.topic.decision)} (sent as the expected decision).</p>
      <label for="decision-value">New decision</label>
      <select id="decision-value" name="decision">
        {DECISIONS.map((d) => (
          <option key={d} value={d}>
            {label(d)}
          </option>
        ))}
      </select>
      <CampaignSelect id="decision-campaign" campaigns={props.campaigns} />
      <ReasonField id="decision-reason" />
    </WriteForm>
  );
}

function ReopenForm(props: OwnerFormProps & { campaigns: Campaign[] }) {
  return (
    <WriteForm
      id="reopen"
      title="Reopen the review"
      submit="Reopen"
      method="POST"
      {...ownerWrite(props, 'reopen')}
      request={(form) => ({
        body: {
          expectedDecision: props.topic.decision,
          campaignId: formText(form, 'campaignId'),
          reason: formText(form, 'reason'),
        },
        done: 'Review reopened.',
      })}
    >
      <CampaignSelect id="reopen-campaign" campaigns={props.campaigns} />
      <ReasonField id="reopen-reason" />
    </WriteForm>
  );
}

function DispositionForm(props: OwnerFormProps) {
  return (
    <WriteForm
      id="disposition"
      title="Disposition"
      submit="Change disposition"
      method="PUT"
      {...ownerWrite(props, 'disposition')}
      request={(form) => ({
        body: {
          expectedDisposition: props.topic.disposition,
          disposition: formText(form, 'disposition'),
          reason: formText(form, 'reason'),
        },
        done: `Disposition set to ${label(formText(form, 'disposition'))}.`,
      })}
    >
      <label for="disposition-value">New disposition</label>
      <select id="disposition-value" name="disposition">
        {DISPOSITIONS.map((d) => (
          <option key={d} value={d} selected={d === props.topic.disposition}>
            {label(d)}
          </option>
        ))}
      </select>
      <ReasonField id="disposition-reason" />
    </WriteForm>
  );
}
