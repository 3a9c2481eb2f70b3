import Joi from 'joi';
import { EXPORT_FORMATS, EXPORT_STATES, type ExportFormat } from '../../../entities/Export';
import { bigintString, dateTime } from '../schemas';
import type { ExportRecord } from './queries';

/** How a service spells its fields (math snake_case, genomics camelCase). */
export type ExportCasing = 'snake_case' | 'camelCase';

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A field name in the service's spelling, from its snake_case name. */
export const fieldName = (casing: ExportCasing, snake: string): string =>
  casing === 'snake_case' ? snake : camel(snake);

const cased = (casing: ExportCasing, fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [fieldName(casing, name), value]));

/** The body of a new export, as validated (field names in the service's spelling). */
export interface ExportBody {
  filters: Record<string, unknown>;
  format: ExportFormat;
  includeEvents: boolean;
}

/**
 * The create body: the task list's filters under `filters` (its own schema, so an unknown filter is refused as the
 * list refuses it), a format and whether each task's workflow events are included.
 */
export function createExportBody(casing: ExportCasing, filters: Joi.ObjectSchema): Joi.ObjectSchema {
  return Joi.object({
    filters: filters.default(),
    format: Joi.string()
      .valid(...EXPORT_FORMATS)
      .default('jsonl')
      .description('`jsonl` (one JSON object per line, the default) or `csv` (RFC 4180, a header row).'),
    [fieldName(casing, 'include_events')]: Joi.boolean()
      .default(false)
      .description('Add each task’s workflow events up to the snapshot (`events`, oldest first).'),
  });
}

export const readExportBody = (casing: ExportCasing, body: Record<string, unknown>): ExportBody => ({
  filters: body.filters as Record<string, unknown>,
  format: body.format as ExportFormat,
  includeEvents: body[fieldName(casing, 'include_events')] as boolean,
});

export function exportSchemaOf(casing: ExportCasing): Joi.ObjectSchema {
  const f = (snake: string) => fieldName(casing, snake);
  return Joi.object({
    id: bigintString().required(),
    state: Joi.string()
      .valid(...EXPORT_STATES)
      .required(),
    format: Joi.string()
      .valid(...EXPORT_FORMATS)
      .required(),
    [f('include_events')]: Joi.boolean().required(),
    filters: Joi.object().unknown(true).required().description('The list filters, as sent (with defaults).'),
    [f('rows_in_snapshot')]: Joi.number()
      .integer()
      .min(0)
      .required()
      .description('Rows the list returned at the snapshot: the rows of the file.'),
    [f('rows_written')]: Joi.number().integer().min(0).required(),
    [f('size_bytes')]: Joi.number().integer().min(0).allow(null).required(),
    sha256: Joi.string()
      .pattern(/^[0-9a-f]{64}$/)
      .allow(null)
      .required(),
    error: Joi.string().allow(null).required(),
    [f('created_at')]: dateTime().required().description('When the snapshot was taken.'),
    [f('finished_at')]: dateTime().allow(null).required(),
    [f('expires_at')]: dateTime().required().description('When the file is deleted (docs/exports.md).'),
  });
}

/** The state shown: a finished export past its expiry is EXPIRED at once, before the purge removes its file. */
export const shownState = (exp: Pick<ExportRecord, 'state' | 'expires_at'>, now = new Date()) =>
  exp.state !== 'RUNNING' && exp.expires_at <= now ? 'EXPIRED' : exp.state;

/** An export as the API shows it: every field listed here, nothing more. */
export function presentExport(casing: ExportCasing, exp: ExportRecord) {
  return cased(casing, {
    id: exp.id,
    state: shownState(exp),
    format: exp.format,
    include_events: exp.include_events,
    filters: exp.filters,
    rows_in_snapshot: exp.rows_in_snapshot,
    rows_written: exp.rows_written,
    size_bytes: exp.size_bytes === null ? null : Number(exp.size_bytes),
    sha256: exp.sha256,
    error: exp.error,
    created_at: exp.created_at.toISOString(),
    finished_at: exp.finished_at?.toISOString() ?? null,
    expires_at: exp.expires_at.toISOString(),
  });
}
