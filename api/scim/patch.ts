import { ScimError as PatchLibraryError, type ScimPatchOperation, scimPatch } from 'scim-patch';
import { type ScimType, scimErrors } from './errors';
import { resolvePath } from './resources';
import { PATCH_OP_SCHEMA, type ResourceTypeDefinition } from './schemas';

const MAX_OPERATIONS = 1000;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a PATCH body (RFC 7644 §3.5.2) and turns it into operations scim-patch applies: `op` in any case (Entra
 * sends "Replace"), every path resolved to a declared attribute under its declared name (else 400 `invalidPath`),
 * no path to a read-only attribute (400 `mutability`), and a path-less value object split into one operation per
 * attribute so each is checked the same way. `id` in a path-less value is accepted when it is the resource's own
 * (Okta sends it so).
 */
export function readPatch(
  type: ResourceTypeDefinition,
  body: unknown,
  resourceId: string,
): ScimPatchOperation[] {
  if (!isPlainObject(body))
    throw scimErrors.badRequest('invalidSyntax', 'The body must be a PatchOp message.');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA))
    throw scimErrors.badRequest('invalidSyntax', `"schemas" must be ["${PATCH_OP_SCHEMA}"].`);
  const unknown = Object.keys(body).filter((k) => !['schemas', 'operations'].includes(k.toLowerCase()));
  if (unknown.length > 0)
    throw scimErrors.badRequest('invalidSyntax', `Unknown member ${unknown.join(', ')}.`);
  const operations = Object.entries(body).find(([k]) => k.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimErrors.badRequest('invalidSyntax', '"Operations" must list at least one operation.');
  if (operations.length > MAX_OPERATIONS)
    throw scimErrors.badRequest('tooMany', `At most ${MAX_OPERATIONS} operations per request.`);
  return operations.flatMap((operation, i) => readOperation(type, operation, `Operations[${i}]`, resourceId));
}

function readOperation(
  type: ResourceTypeDefinition,
  operation: unknown,
  at: string,
  resourceId: string,
): ScimPatchOperation[] {
  if (!isPlainObject(operation)) throw scimErrors.badRequest('invalidSyntax', `${at} must be an object.`);
  const extra = Object.keys(operation).filter((k) => !['op', 'path', 'value'].includes(k));
  if (extra.length > 0)
    throw scimErrors.badRequest('invalidSyntax', `${at}: unknown member ${extra.join(', ')}.`);
  const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
  if (op !== 'add' && op !== 'remove' && op !== 'replace')
    throw scimErrors.badRequest('invalidSyntax', `${at}.op must be add, remove or replace.`);
  const { path, value } = operation;
  if (path !== undefined && typeof path !== 'string')
    throw scimErrors.badRequest('invalidPath', `${at}.path must be a string.`);
  if (op === 'remove') {
    if (!path) throw scimErrors.badRequest('noTarget', `${at}: remove needs a path.`);
    const canonical = canonicalPath(type, path, at);
    // Entra ID removes members by value (`"value": [{"value": "<id>"}]`); scim-patch compares whole objects, so
    // each becomes a removal by filter on `value`, which is what the client means.
    if (Array.isArray(value) && !canonical.includes('[')) {
      return value.map((item, i) => {
        if (!isPlainObject(item) || typeof item.value !== 'string')
          throw scimErrors.badRequest('invalidValue', `${at}.value[${i}] must be an object with a "value".`);
        return { op, path: `${canonical}[value eq ${JSON.stringify(item.value)}]` };
      });
    }
    return [{ op, path: canonical, ...(value !== undefined ? { value } : {}) }];
  }
  if (!('value' in operation)) throw scimErrors.badRequest('invalidValue', `${at}: ${op} needs a value.`);
  if (path) return [{ op, path: canonicalPath(type, path, at), value }];
  if (!isPlainObject(value))
    throw scimErrors.badRequest(
      'invalidValue',
      `${at}: without a path, value must be an object of attributes.`,
    );
  return Object.entries(value).flatMap(([key, v]): ScimPatchOperation[] => {
    if (key.toLowerCase() === 'id' && v === resourceId) return [];
    const extension = type.extensions.find((e) => e.id.toLowerCase() === key.toLowerCase());
    if (extension) {
      if (!isPlainObject(v)) throw scimErrors.badRequest('invalidValue', `${at}: ${key} must be an object.`);
      return Object.entries(v).map(([sub, subValue]) => ({
        op,
        path: canonicalPath(type, `${extension.id}:${sub}`, at),
        value: subValue,
      }));
    }
    return [{ op, path: canonicalPath(type, key, at), value: v }];
  });
}

/** A path with its attribute names as declared; unknown → `invalidPath`, read-only → `mutability`. */
function canonicalPath(type: ResourceTypeDefinition, path: string, at: string): string {
  const bracket = path.indexOf('[');
  const head = bracket >= 0 ? path.slice(0, bracket) : path;
  const tail = bracket >= 0 ? path.slice(bracket) : '';
  const filtered = /^\[[^\]]+\](\.[A-Za-z$][\w$-]*)?$/.exec(tail);
  if (tail && !filtered) throw scimErrors.badRequest('invalidPath', `${at}: "${path}" is not a valid path.`);
  const resolved = resolvePath(type, head);
  if (!resolved)
    throw scimErrors.badRequest('invalidPath', `${at}: "${path}" names no attribute of ${type.name}.`);
  if (tail && (resolved.sub || !resolved.attribute.multiValued))
    throw scimErrors.badRequest('invalidPath', `${at}: "${head}" is not a multi-valued attribute.`);
  const subAfterFilter = filtered?.[1]?.slice(1);
  const sub =
    resolved.sub ??
    (subAfterFilter
      ? resolved.attribute.subAttributes?.find((a) => a.name.toLowerCase() === subAfterFilter.toLowerCase())
      : undefined);
  if (subAfterFilter && !sub)
    throw scimErrors.badRequest('invalidPath', `${at}: "${path}" names no attribute of ${type.name}.`);
  if (resolved.attribute.mutability === 'readOnly' || sub?.mutability === 'readOnly')
    throw scimErrors.badRequest('mutability', `${at}: "${path}" is read-only.`);
  const prefix = resolved.schema && resolved.schema.id !== type.schema.id ? `${resolved.schema.id}:` : '';
  if (tail)
    return `${prefix}${resolved.attribute.name}${tail.replace(/\.[^.\]]+$/, sub ? `.${sub.name}` : '')}`;
  return `${prefix}${resolved.attribute.name}${resolved.sub ? `.${resolved.sub.name}` : ''}`;
}

const LIBRARY_TYPES: Record<string, ScimType> = {
  invalidPath: 'invalidPath',
  noTarget: 'noTarget',
  invalidValue: 'invalidValue',
  invalidSyntax: 'invalidSyntax',
};

/** Applies checked operations to a copy of a presented resource; the library's refusals are SCIM 400s. */
export function applyPatch<T extends Record<string, unknown>>(
  resource: T,
  operations: ScimPatchOperation[],
): T {
  try {
    return scimPatch(resource as never, operations, { mutateDocument: false, treatMissingAsAdd: true }) as T;
  } catch (error) {
    if (error instanceof PatchLibraryError) {
      const scimType = LIBRARY_TYPES[error.scimCode ?? ''] ?? 'invalidValue';
      throw scimErrors.badRequest(scimType, error.message || 'The patch cannot be applied.');
    }
    throw error;
  }
}
