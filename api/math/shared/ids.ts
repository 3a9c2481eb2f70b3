import type Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString } from '../../shared/schemas';

const BIGINT_MAX = 9_223_372_036_854_775_807n;

const fitsBigint = (value: string, helpers: Joi.CustomHelpers) =>
  /^[0-9]+$/.test(value) && BigInt(value) > BIGINT_MAX ? helpers.error('bigint.range') : value;

const rangeMessage = { 'bigint.range': '{{#label}} must be at most 9223372036854775807' };

/** A member or client id in a request: a bigint-string that also fits PostgreSQL's bigint (else 400, not 500). */
export const idInput = () => bigintString().custom(fitsBigint).messages(rangeMessage);

/** `unassigned`, or a member or client id (see `idInput`). */
export const idOrUnassignedInput = (what: string, unassigned: string) =>
  typed
    .string()
    .pattern(new RegExp(`^(${unassigned}|[1-9][0-9]{0,18})$`), `${what} id or "${unassigned}"`)
    .custom(fitsBigint)
    .messages(rangeMessage);

/** Free text PostgreSQL can store: no NUL character (a custom rule, so it composes with named patterns). */
export const storableText = () =>
  typed
    .string()
    .custom((value: string, helpers) => (value.includes('\u0000') ? helpers.error('text.nul') : value))
    .messages({ 'text.nul': '{{#label}} must not contain a NUL character' });
