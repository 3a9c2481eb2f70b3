import Joi from 'joi';
import { MEASUREMENT_SCOPES } from '../../../entities/GenomicsMeasurement';
import { ASSIGNMENT_STATUSES } from '../../../workflows/genomicsTask/state';
import { bigintString, dateTime } from '../../shared/schemas';

const sha256 = () => Joi.string().pattern(/^[0-9a-f]{64}$/, 'sha256');
const objectPath = () => Joi.string().pattern(/^s3:\/\/[^/]+\/.+$/, 's3 path');

export const measurementSchema = Joi.object({
  id: Joi.string().required(),
  source_id: Joi.string().required(),
  model_id: Joi.string().required(),
  scope: Joi.string()
    .valid(...MEASUREMENT_SCOPES)
    .required(),
  status: Joi.string().valid('MEASURED', 'UNAVAILABLE').required(),
  scientific_passes: Joi.number().integer().min(0).allow(null).required(),
  completed: Joi.number().integer().min(0).allow(null).required(),
  pass_rate: Joi.number().min(0).max(1).allow(null).required(),
  measured_at: dateTime().required(),
  artifact_sha256: sha256().required(),
  reason: Joi.string().allow(null).required(),
});

export const reportSchema = Joi.object({
  id: bigintString().required(),
  source_id: Joi.string().required(),
  title: Joi.string().required(),
  media_type: Joi.string().required(),
  path: objectPath().required(),
  size: Joi.number().integer().min(0).required(),
  sha256: sha256().required(),
  reported_at: dateTime().allow(null).required(),
});

const publicationSchema = Joi.object({
  id: bigintString().required(),
  source_id: Joi.string().required(),
  revision_id: bigintString().allow(null).required(),
  title: Joi.string().required(),
  media_type: Joi.string().required(),
  path: objectPath().required(),
  size: Joi.number().integer().min(0).required(),
  sha256: sha256().required(),
  published_at: dateTime().allow(null).required(),
});

export const revisionSchema = Joi.object({
  id: bigintString().required(),
  campaign_id: Joi.string().required(),
  number: Joi.number().integer().min(1).required(),
  status: Joi.string().valid('IN_PROGRESS', 'COMPLETED').required(),
  notes: Joi.string().allow('').required(),
  started_by: bigintString().allow(null).required(),
  source_id: Joi.string().allow(null).required(),
  path: objectPath().allow(null).required(),
  size: Joi.number().integer().min(0).allow(null).required(),
  sha256: sha256().allow(null).required(),
  media_type: Joi.string().allow(null).required(),
  created_at: dateTime().required(),
  completed_at: dateTime().allow(null).required(),
});

export const eventSchema = Joi.object({
  id: bigintString().required(),
  kind: Joi.string().required(),
  actor_id: bigintString().allow(null).required(),
  workflow_version: Joi.number().integer().min(1).allow(null).required(),
  detail: Joi.object().unknown(true).required(),
  created_at: dateTime().required(),
});

export const itemsOf = (item: Joi.Schema) => Joi.object({ items: Joi.array().items(item).required() });

export const pathsSchema = Joi.object({
  reports: Joi.array().items(reportSchema).required(),
  revisions: Joi.array().items(revisionSchema).required(),
  publications: Joi.array().items(publicationSchema).required(),
});

export const assignmentSchema = Joi.object({
  id: bigintString().required(),
  reviewer_id: bigintString().required(),
  status: Joi.string()
    .valid(...ASSIGNMENT_STATUSES)
    .required(),
  instructions: Joi.string().allow('').required(),
  due_at: dateTime().allow(null).required(),
  assigned_by: bigintString().allow(null).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
  submitted_at: dateTime().allow(null).required(),
  closed_at: dateTime().allow(null).required(),
});
