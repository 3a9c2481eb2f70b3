import Joi from 'joi';
import { bigintString, businessId, dateTime } from '../../shared/schemas';
import { ACTIVITY_KINDS, type ActivityRow } from './queries';

/** One activity item: a task workflow event or a client audit event, with a kind-prefixed id. */
export function presentActivity(a: ActivityRow) {
  return {
    id: `${a.kind}:${a.id}`,
    kind: a.kind,
    action: a.action,
    actor_id: a.actor_id,
    task_id: a.task_id,
    client_id: a.client_id,
    version: a.version,
    comment: a.comment,
    from_state: a.from_state,
    to_state: a.to_state,
    detail: a.detail,
    created_at: a.created_at.toISOString(),
  };
}

export const activitySchema = Joi.object({
  id: Joi.string()
    .pattern(/^(task|client):[1-9][0-9]*$/)
    .required(),
  kind: Joi.string()
    .valid(...ACTIVITY_KINDS)
    .required(),
  action: Joi.string().required(),
  actor_id: bigintString().allow(null).required(),
  task_id: businessId().allow(null).required(),
  client_id: bigintString().allow(null).required(),
  version: Joi.number().integer().min(1).allow(null).required(),
  comment: Joi.string().allow(null).required(),
  from_state: Joi.string().allow(null).required(),
  to_state: Joi.string().allow(null).required(),
  detail: Joi.object().required(),
  created_at: dateTime().required(),
});
