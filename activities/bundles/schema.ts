import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { BundleProblem } from './common';

/** The bundles' JSON Schemas: compiling them once, and reading Ajv's errors as bundle problems. */

let ajv: Ajv2020 | undefined;

/** The one Ajv instance for bundle schemas (JSON Schema 2020-12, every error, formats checked). */
function bundleAjv(): Ajv2020 {
  if (!ajv) {
    // useDefaults: absent optional fields take the schema's `default`, so the schema alone says what absence means.
    ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictRequired: false,
      verbose: true,
      useDefaults: true,
    });
    addFormats(ajv, ['date-time']);
  }
  return ajv;
}

/** A compiled bundle schema: the whole manifest, and any of its `$defs` (for records read line by line). */
export interface BundleSchema {
  manifest: ValidateFunction;
  def(name: string): ValidateFunction;
}

/** Compiles a bundle's JSON Schema (by its `$id`, once per process). */
export function compileBundleSchema(schema: { $id: string }): BundleSchema {
  const instance = bundleAjv();
  if (!instance.getSchema(schema.$id)) instance.addSchema(schema);
  const get = (ref: string) => {
    const validate = instance.getSchema(ref);
    if (!validate) throw new Error(`no schema ${ref}`);
    return validate;
  };
  return { manifest: get(schema.$id), def: (name) => get(`${schema.$id}#/$defs/${name}`) };
}

/** `/tasks/3/report_id` → `$.tasks.3.report_id` (the path style of every problem). */
const dotted = (base: string, pointer: string) =>
  pointer === ''
    ? base
    : `${base}${pointer
        .split('/')
        .slice(1)
        .map((s) => `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`)
        .join('')}`;

const describedBy = (e: ErrorObject) =>
  typeof e.parentSchema?.description === 'string' ? e.parentSchema.description : null;

function messageOf(e: ErrorObject): { suffix: string; message: string } {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { suffix: `.${String(params.missingProperty)}`, message: 'is required' };
    case 'additionalProperties':
      return { suffix: `.${String(params.additionalProperty)}`, message: 'is not allowed' };
    case 'const':
      return { suffix: '', message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { suffix: '', message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'type':
      return { suffix: '', message: `must be ${String(params.type).split(',').join(' or ')}` };
    case 'format':
      return {
        suffix: '',
        message: `must be a ${String(params.format)}${params.format === 'date-time' ? ' with a time zone (RFC 3339)' : ''}`,
      };
    case 'pattern':
    case 'oneOf':
    case 'anyOf':
    case 'not':
      return {
        suffix: '',
        message: describedBy(e) ? `must be ${describedBy(e)}` : (e.message ?? 'is invalid'),
      };
    default:
      return { suffix: '', message: e.message ?? 'is invalid' };
  }
}

/**
 * Ajv's errors as problems. Errors inside a failed `oneOf`/`anyOf`/`not` are folded into it (its
 * `description` says what was expected), so one mistake reads as one problem.
 */
export function schemaProblems(
  errors: ErrorObject[] | null | undefined,
  file: string,
  base = '$',
  line?: number,
): BundleProblem[] {
  const all = errors ?? [];
  const combinators = all.filter((e) => ['oneOf', 'anyOf', 'not'].includes(e.keyword));
  const folded = all.filter(
    (e) => !combinators.some((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`)),
  );
  return folded.map((e) => {
    const { suffix, message } = messageOf(e);
    const path = `${dotted(base, e.instancePath)}${suffix}`;
    return line === undefined ? { file, path, message } : { file, path, message, line };
  });
}
