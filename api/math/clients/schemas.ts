import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString, dateTime } from '../../shared/schemas';
import { idInput, storableText } from '../shared/ids';
import { pageQueryKeys, pageSchema } from '../shared/pagination';
import { searchQuery } from '../shared/search';

export const CLIENT_NAME_MIN = 2;
export const CLIENT_NAME_MAX = 100;
export const CLIENT_DESCRIPTION_MAX = 2000;

/** Length in characters (code points), as PostgreSQL counts them. */
const characters = (text: string) => [...text].length;

/** A client name: trimmed, then 2 to 100 characters. The validated value is the trimmed name. */
const clientName = () =>
  storableText()
    .max(4 * CLIENT_NAME_MAX)
    .custom((value: string, helpers) => {
      const trimmed = value.trim();
      const length = characters(trimmed);
      if (length < CLIENT_NAME_MIN || length > CLIENT_NAME_MAX) return helpers.error('clientName.length');
      return trimmed;
    })
    .messages({
      'clientName.length': `{{#label}} must be ${CLIENT_NAME_MIN} to ${CLIENT_NAME_MAX} characters after trimming`,
      'string.empty': `{{#label}} must be ${CLIENT_NAME_MIN} to ${CLIENT_NAME_MAX} characters after trimming`,
    });

const description = () => storableText().allow('').max(CLIENT_DESCRIPTION_MAX);

export const clientParams = typed.object({ client_id: idInput().required() });

/** `q` searches client names. */
export const clientListQuery = typed.object({ q: searchQuery(), ...pageQueryKeys });

export const createClientBody = typed.object({
  name: clientName().required(),
  description: description(),
  enabled: typed.boolean(),
});

/** An update names all four fields; `updated_at` is the value last read (the edit-conflict token). */
export const updateClientBody = typed.object({
  name: clientName().required(),
  description: description().required(),
  enabled: typed.boolean().required(),
  updated_at: dateTime().required(),
});

const count = () => Joi.number().integer().min(0).required();

export const clientSchema = Joi.object({
  id: bigintString().required(),
  name: Joi.string().required(),
  description: Joi.string().allow('').required(),
  enabled: Joi.boolean().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
  task_count: count(),
  archived_task_count: count(),
});

/** The creation receipt: no timestamps; read the list for `updated_at`, as the spec says. */
export const createdClientSchema = Joi.object({
  id: bigintString().required(),
  name: Joi.string().required(),
  description: Joi.string().allow('').required(),
  enabled: Joi.boolean().required(),
});

export const clientListSchema = pageSchema(clientSchema);

/** The dashboard's summary: no description, no archived count. */
export const clientSummaryListSchema = pageSchema(
  Joi.object({
    id: bigintString().required(),
    name: Joi.string().required(),
    enabled: Joi.boolean().required(),
    task_count: count(),
  }),
);
