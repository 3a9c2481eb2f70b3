import { ROLES, SCOPES } from '../../entities/types';
import { typed } from '../kernel/typedSchema';

const BIGINT_MAX = 9223372036854775807n;

/**
 * A decimal 64-bit id carried as a JSON string. The spec's pattern admits 19-digit values above the signed
 * 64-bit maximum; those are refused here as out of range rather than reaching PostgreSQL.
 */
export const bigintString = () =>
  typed
    .string()
    .pattern(/^[1-9][0-9]{0,18}$/, 'bigint-string')
    .custom((value: string, helpers) =>
      /^[0-9]{19}$/.test(value) && BigInt(value) > BIGINT_MAX ? helpers.error('bigint.range') : value,
    )
    .messages({ 'bigint.range': '{{#label}} must be at most 9223372036854775807' });
export const dateTime = () => typed.string().isoDate();
export const role = () => typed.string().valid(...ROLES);
export const scope = () => typed.string().valid(...SCOPES);
/** Imported business ids (task, run, topic, question, report, artifact). */
export const businessId = () => typed.string().pattern(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'business id');

export const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
