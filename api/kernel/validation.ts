import type Joi from 'joi';
import { type FieldError, problems } from './errors';

const toFieldErrors = (where: string, error: Joi.ValidationError): FieldError[] =>
  error.details.map((d) => ({
    path: [where, ...d.path.map(String)].join('.'),
    message: d.message.replace(/^"([^"]+)"/, (_m, label: string) => `${where}.${label}`),
  }));

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
  if (error) throw problems.validation(toFieldErrors(where, error));
  return validated as T;
}
