import type Joi from 'joi';
import { fieldErrors } from './errorTranslation';
import { problems } from './errors';

/**
 * Validates one part of the request. Query strings and path parameters arrive as text and are converted;
 * JSON bodies are not (a number sent as a string is an error). Unknown fields are rejected by name.
 */
export function validatePart<T>(
  where: 'params' | 'query' | 'body' | 'headers',
  schema: Joi.Schema<T>,
  value: unknown,
): T {
  const { value: validated, error } = schema.validate(value, {
    abortEarly: false,
    convert: where !== 'body',
    allowUnknown: where === 'headers',
    errors: { wrap: { label: '"' } },
  });
  if (error) throw problems.validation(fieldErrors(where, error));
  return validated as T;
}

/**
 * Validates the headers an operation declares and returns only those: a handler cannot read a header its
 * declaration does not list (so the contract lists every input). The result is frozen.
 */
export function validateHeaders<T>(schema: Joi.ObjectSchema<T>, headers: unknown): Readonly<T> {
  const { value, error } = schema.validate(headers, {
    abortEarly: false,
    convert: true,
    stripUnknown: true,
    errors: { wrap: { label: '"' } },
  });
  if (error) throw problems.validation(fieldErrors('headers', error));
  return Object.freeze(value as T);
}
