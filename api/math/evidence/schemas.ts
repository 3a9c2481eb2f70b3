import Joi from 'joi';
import { businessId, dateTime } from '../../shared/schemas';

/** A task's evidence as imported; each part is whatever its report recorded, or null. */
export const evidenceSchema = Joi.object({
  task_id: businessId().required(),
  report_id: businessId().allow(null).required(),
  rubric: Joi.object().allow(null).required(),
  review: Joi.object().allow(null).required(),
  quality_gate: Joi.object().allow(null).required(),
  imported_at: dateTime().allow(null).required(),
});
