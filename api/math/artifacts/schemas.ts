import Joi from 'joi';
import { type SchemaType, typed } from '../../kernel/typedSchema';
import { ARTIFACT_KINDS } from '../../../entities/MathArtifact';
import { businessId } from '../../shared/schemas';

export const artifactParams = typed.object({ artifact_id: businessId().required() });

export const runParams = typed.object({ run_id: businessId().required() });
export type RunParams = SchemaType<typeof runParams>;

const sha256 = () => Joi.string().pattern(/^[0-9a-f]{64}$/, 'sha256');
const downloadUrl = () => Joi.string().pattern(/^\/api\/math\/artifacts\/[^/]+\/download$/, 'download url');

const fileFields = {
  artifact_id: businessId().required(),
  source_path: Joi.string().required(),
  filename: Joi.string().required(),
  media_type: Joi.string().required(),
  size_bytes: Joi.number().integer().min(0).required(),
  sha256: sha256().required(),
  download_url: downloadUrl().required(),
};

/** The task's current primary report: imported ids, the ids it had at the source, and where to get it. */
export const taskPathsSchema = Joi.object({
  task_id: businessId().required(),
  run_id: businessId().required(),
  report_id: businessId().required(),
  source_id: Joi.string().allow(null).required(),
  ...fileFields,
});

export const runPathsSchema = Joi.object({
  run_id: businessId().required(),
  paths: Joi.array()
    .min(1)
    .items(
      Joi.object({
        ...fileFields,
        kind: Joi.string()
          .valid(...ARTIFACT_KINDS)
          .required(),
        class: Joi.string().valid('STANDARD').required(),
        reports: Joi.array()
          .items(
            Joi.object({
              report_id: businessId().required(),
              source_id: Joi.string().allow(null).required(),
            }),
          )
          .required(),
      }),
    )
    .required(),
});
