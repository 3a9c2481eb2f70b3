import Joi from 'joi';
import { ROLES, SCOPES } from '../../entities/types';

/** A decimal 64-bit id carried as a JSON string. */
export const bigintString = () => Joi.string().pattern(/^[1-9][0-9]{0,18}$/, 'bigint-string');
export const dateTime = () => Joi.string().isoDate();
export const role = () => Joi.string().valid(...ROLES);
export const scope = () => Joi.string().valid(...SCOPES);
/** Imported business ids (task, run, topic, question, report, artifact). */
export const businessId = () => Joi.string().pattern(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'business id');

export const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
