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

/** Query strings kept validated, over every operation: a bound on memory, the first stored leaving first. */
const VALIDATED_QUERIES_MAX = 1000;
/** Longer query strings are validated each time (the cache holds short, repeated ones: pages, cursors). */
const VALIDATED_QUERY_MAX_LENGTH = 512;
const validatedQueries = new Map<string, unknown>();

/**
 * Validates a query string as {@link validatePart} does, once per distinct string and operation: a schema's
 * answer depends on the string alone, so a list asked again for the same page (the usual case) reuses it.
 * Each caller gets its own copy. Refused strings are not kept: their 400 is built each time.
 */
export function validateQuery<T>(
  operationId: string,
  schema: Joi.Schema<T>,
  querystring: string,
  value: unknown,
): T {
  if (querystring.length > VALIDATED_QUERY_MAX_LENGTH) return validatePart('query', schema, value);
  const key = `${operationId}?${querystring}`;
  const kept = validatedQueries.get(key);
  if (kept !== undefined) return structuredClone(kept) as T;
  const validated = validatePart('query', schema, value);
  if (validatedQueries.size >= VALIDATED_QUERIES_MAX)
    validatedQueries.delete(validatedQueries.keys().next().value as string);
  validatedQueries.set(key, validated);
  return structuredClone(validated);
}
