import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString, dateTime } from '../../shared/schemas';

export const DESCRIPTION_MAX_CHARS = 10_000;
export const PAGE_PATH_MAX_CHARS = 2048;
export const PICTURE_MAX_BYTES = 8 * 1024 * 1024;
export const BUG_REPORT_LIST_LIMIT = 50;

/** The form's text fields; `picture` is the only file part and is checked by its bytes. */
export const bugReportFields = typed.object({
  description: typed.string().max(DESCRIPTION_MAX_CHARS).pattern(/\S/, 'nonblank').required().messages({
    'string.pattern.name': '{{#label}} must not be blank',
    'string.empty': '{{#label}} must not be blank',
  }),
  page_path: typed
    .string()
    .max(PAGE_PATH_MAX_CHARS)
    // eslint-disable-next-line no-control-regex
    .pattern(/^\/(?!\/)[^\s\\\u0000-\u001f\u007f]*$/, 'relative path')
    .messages({
      'string.pattern.name':
        '{{#label}} must be a relative path starting with a single "/", without spaces, backslashes or control characters',
    }),
});

export const bugReportParams = typed.object({ report_id: bigintString().required() });

const picture = Joi.object({
  media_type: Joi.string().valid('image/png', 'image/jpeg', 'image/webp').required(),
  size_bytes: Joi.number().integer().min(1).max(PICTURE_MAX_BYTES).required(),
  sha256: Joi.string()
    .pattern(/^[0-9a-f]{64}$/)
    .required(),
}).allow(null);

export const bugReportReceiptSchema = Joi.object({
  report_id: bigintString().required(),
  page_path: Joi.string().allow(null).required(),
  picture: picture.required(),
  created_at: dateTime().required(),
});

export const bugReportListSchema = Joi.object({
  bug_reports: Joi.array()
    .max(BUG_REPORT_LIST_LIMIT)
    .items(
      Joi.object({
        report_id: bigintString().required(),
        submitter_id: bigintString().required(),
        description: Joi.string().required(),
        page_path: Joi.string().allow(null).required(),
        picture: picture.required(),
        screenshot_url: Joi.string().allow(null).required(),
        created_at: dateTime().required(),
      }),
    )
    .required(),
});
