import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString, businessId, dateTime } from '../../shared/schemas';
import { withoutFormatCharacters } from '../files/contentDisposition';

export const ATTACHMENT_MAX_BYTES = 16 * 1024 * 1024;
export const ACTIVE_ATTACHMENTS_PER_TASK = 200;
export const ATTACHMENT_MEDIA_TYPE = 'application/octet-stream';

export const attachmentParams = typed.object({
  task_id: businessId().required(),
  attachment_id: bigintString().required(),
});

/** `X-Filename`: the optional file name, percent-encoded UTF-8 so any name travels in a header. */
export const FILENAME_MAX_CHARS = 255;
export const uploadHeaders = typed.object({
  'x-filename': typed
    .string()
    .max(3 * 4 * FILENAME_MAX_CHARS)
    .custom((value: string, helpers) => {
      let name: string;
      try {
        // Stored without bidi and other format characters, which would make it read as another name.
        name = withoutFormatCharacters(decodeURIComponent(value));
      } catch {
        return helpers.message({ custom: '{{#label}} must be percent-encoded UTF-8' });
      }
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f/\\]/.test(name) || name.trim() === '' || name === '.' || name === '..')
        return helpers.message({
          custom: '{{#label}} must be a plain file name (no folders, no control characters)',
        });
      if (Array.from(name).length > FILENAME_MAX_CHARS)
        return helpers.message({ custom: `{{#label}} must be at most ${FILENAME_MAX_CHARS} characters` });
      return name;
    })
    .description(
      'The file name, percent-encoded UTF-8 (at most 255 characters once decoded; no folders or control characters). ' +
        'Unicode format characters (bidi controls, zero-width characters) are removed.',
    ),
});

export const attachmentSchema = Joi.object({
  attachment_id: bigintString().required(),
  task_id: businessId().required(),
  filename: Joi.string().allow(null).required(),
  media_type: Joi.string().valid(ATTACHMENT_MEDIA_TYPE).required(),
  size_bytes: Joi.number().integer().min(1).max(ATTACHMENT_MAX_BYTES).required(),
  sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .required(),
  uploader_id: bigintString().required(),
  created_at: dateTime().required(),
  download_url: Joi.string().required(),
});

export const attachmentListSchema = Joi.object({
  task_id: businessId().required(),
  attachments: Joi.array().max(ACTIVE_ATTACHMENTS_PER_TASK).items(attachmentSchema).required(),
});
