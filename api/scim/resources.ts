import { ScimError, scimErrors } from './errors';
import {
  type AttributeDefinition,
  commonAttributes,
  type ResourceTypeDefinition,
  type SchemaDefinition,
} from './schemas';

/** Bounds of a resource's values: far above what identity services send, low enough to bound a row. */
const MAX_STRING = 2048;
const MAX_VALUES = 100;
/** A Group may hold many Users. */
const MAX_GROUP_MEMBERS = 10_000;
/** The identity's length, as `referee members sync` bounds `identity_id`. */
export const MAX_USER_NAME = 128;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const findAttribute = (attributes: AttributeDefinition[], name: string) =>
  attributes.find((a) => a.name.toLowerCase() === name.toLowerCase());

/** What a resource type accepts at its top level: its core schema's attributes and the common ones. */
const topLevel = (type: ResourceTypeDefinition) => [...type.schema.attributes, ...commonAttributes];

const invalid = (path: string, message: string) =>
  scimErrors.badRequest('invalidValue', `${path}: ${message}`);

/**
 * Reads one value of a declared attribute; SCIM attribute names are case-insensitive, so each is stored under its
 * declared name. Booleans also come as the strings "True" and "False" (Microsoft Entra ID sends them so). `null` means
 * unassigned and is dropped. Read-only sub-attributes are ignored, as RFC 7643 §2.2 says.
 */
function readValue(
  definition: AttributeDefinition,
  value: unknown,
  path: string,
  maxValues: number,
): unknown {
  if (value === null) return undefined;
  if (definition.multiValued) {
    if (!Array.isArray(value)) throw invalid(path, 'must be an array');
    if (value.length > maxValues)
      throw scimErrors.badRequest('tooMany', `${path}: at most ${maxValues} values`);
    return value
      .map((item, i) => readSingle(definition, item, `${path}[${i}]`))
      .filter((v) => v !== undefined);
  }
  return readSingle(definition, value, path);
}

function readSingle(definition: AttributeDefinition, value: unknown, path: string): unknown {
  if (value === null) return undefined;
  switch (definition.type) {
    case 'string':
    case 'reference':
    case 'dateTime':
    case 'binary':
      if (typeof value !== 'string') throw invalid(path, 'must be a string');
      if (value.length > MAX_STRING) throw invalid(path, `must be at most ${MAX_STRING} characters`);
      return value;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw invalid(path, 'must be true or false');
    case 'integer':
      if (!Number.isInteger(value)) throw invalid(path, 'must be an integer');
      return value;
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(path, 'must be a number');
      return value;
    case 'complex':
      return readComplex(definition.subAttributes ?? [], value, path);
  }
}

function readComplex(
  attributes: AttributeDefinition[],
  value: unknown,
  path: string,
): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(path, 'must be an object');
  const read: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const definition = findAttribute(attributes, key);
    if (!definition)
      throw scimErrors.badRequest('invalidSyntax', `${path}.${key} is not an attribute of ${path}.`);
    if (definition.mutability === 'readOnly') continue;
    const v = readValue(definition, item, `${path}.${definition.name}`, MAX_VALUES);
    if (v !== undefined) read[definition.name] = v;
  }
  return read;
}

/** A resource body as it is stored: declared attributes only, under their declared names; ours left out. */
export interface ReadResource {
  attributes: Record<string, unknown>;
  /** Extension schema URN → its attributes. */
  extensions: Record<string, Record<string, unknown>>;
}

/**
 * Reads a POST or PUT body of a resource type: `schemas` must name its core schema (and only schemas it takes),
 * every attribute must be one the schemas declare (else 400 `invalidSyntax`, changing nothing), values must have
 * their declared types and bounds, required ones must be there. Read-only attributes (`id`, `meta`, `groups`) are
 * ignored and write-only ones (`password`) dropped, as RFC 7643 §7 says.
 */
export function readResource(type: ResourceTypeDefinition, body: unknown): ReadResource {
  if (!isPlainObject(body))
    throw scimErrors.badRequest('invalidSyntax', `The body must be a ${type.name} object.`);
  const schemas = Object.entries(body).find(([k]) => k.toLowerCase() === 'schemas')?.[1];
  if (!Array.isArray(schemas) || !schemas.every((s) => typeof s === 'string')) {
    throw scimErrors.badRequest('invalidSyntax', `"schemas" must list ${type.schema.id}.`);
  }
  if (!schemas.includes(type.schema.id)) {
    throw scimErrors.badRequest('invalidSyntax', `"schemas" must include ${type.schema.id}.`);
  }
  const known = new Set([type.schema.id, ...type.extensions.map((e) => e.id)]);
  const foreign = schemas.filter((s) => !known.has(s));
  if (foreign.length > 0) {
    throw scimErrors.badRequest(
      'invalidSyntax',
      `${type.name} does not take the schema ${foreign.join(', ')}.`,
    );
  }
  const read: ReadResource = { attributes: {}, extensions: {} };
  for (const [key, value] of Object.entries(body)) {
    if (key.toLowerCase() === 'schemas') continue;
    const extension = type.extensions.find((e) => e.id.toLowerCase() === key.toLowerCase());
    if (extension) {
      const attributes = readComplex(extension.attributes, value, extension.id);
      if (Object.keys(attributes).length > 0) read.extensions[extension.id] = attributes;
      continue;
    }
    const definition = findAttribute(topLevel(type), key);
    if (!definition)
      throw scimErrors.badRequest('invalidSyntax', `"${key}" is not an attribute of ${type.name}.`);
    if (definition.mutability === 'readOnly') continue;
    const maxValues = type.name === 'Group' && definition.name === 'members' ? MAX_GROUP_MEMBERS : MAX_VALUES;
    const v = readValue(definition, value, definition.name, maxValues);
    if (definition.mutability === 'writeOnly' || v === undefined) continue;
    read.attributes[definition.name] = v;
  }
  for (const definition of type.schema.attributes.filter((a) => a.required)) {
    const v = read.attributes[definition.name];
    if (typeof v !== 'string' || v.trim() === '') {
      throw scimErrors.badRequest('invalidValue', `"${definition.name}" is required.`);
    }
  }
  return read;
}

/** Where a path (`name.givenName`, `urn:…:User:department`) points among a type's declared attributes. */
export interface ResolvedPath {
  schema: SchemaDefinition | null;
  attribute: AttributeDefinition;
  sub?: AttributeDefinition;
}

/** Resolves an attribute path of a resource type; null when it names nothing declared. */
export function resolvePath(type: ResourceTypeDefinition, path: string): ResolvedPath | null {
  let rest = path;
  let schema: SchemaDefinition | null = null;
  let attributes = topLevel(type);
  for (const candidate of [type.schema, ...type.extensions]) {
    if (rest.toLowerCase().startsWith(`${candidate.id.toLowerCase()}:`)) {
      schema = candidate;
      rest = rest.slice(candidate.id.length + 1);
      attributes = candidate === type.schema ? topLevel(type) : candidate.attributes;
    }
  }
  const [name, subName, ...more] = rest.split('.');
  if (more.length > 0 || !name) return null;
  const attribute = findAttribute(attributes, name);
  if (!attribute) return null;
  if (subName === undefined) return { schema, attribute };
  const sub = findAttribute(attribute.subAttributes ?? [], subName);
  return sub ? { schema, attribute, sub } : null;
}

/** Parses `attributes` / `excludedAttributes` (comma-separated paths); an unknown path is a 400. */
export function parseAttributeList(
  type: ResourceTypeDefinition,
  value: string | undefined,
): ResolvedPath[] | null {
  if (value === undefined) return null;
  return value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const resolved = resolvePath(type, p);
      if (!resolved)
        throw scimErrors.badRequest('invalidValue', `"${p}" is not an attribute of ${type.name}.`);
      return resolved;
    });
}

const keyOf = (resolved: ResolvedPath) =>
  resolved.schema && resolved.schema.id !== '' ? resolved.schema : null;

/**
 * Shapes a presented resource as `attributes` or `excludedAttributes` ask (RFC 7644 §3.9): `id` and `schemas`
 * always stay, and so does every attribute returned `always`.
 */
export function shapeResource(
  type: ResourceTypeDefinition,
  resource: Record<string, unknown>,
  options: { attributes: ResolvedPath[] | null; excluded: ResolvedPath[] | null },
): Record<string, unknown> {
  const container = (resolved: ResolvedPath): string | null => {
    const schema = keyOf(resolved);
    return schema && schema.id !== type.schema.id ? schema.id : null;
  };
  if (options.attributes && options.attributes.length > 0) {
    const shaped: Record<string, unknown> = { schemas: resource.schemas, id: resource.id };
    for (const definition of topLevel(type).filter((a) => a.returned === 'always'))
      if (resource[definition.name] !== undefined) shaped[definition.name] = resource[definition.name];
    for (const resolved of options.attributes) {
      const holder = container(resolved);
      const source = (holder ? resource[holder] : resource) as Record<string, unknown> | undefined;
      const value = source?.[resolved.attribute.name];
      if (value === undefined) continue;
      const target = holder ? ((shaped[holder] ??= {}) as Record<string, unknown>) : shaped;
      if (!resolved.sub) target[resolved.attribute.name] = value;
      else {
        const pick = (v: unknown) =>
          isPlainObject(v) && v[resolved.sub!.name] !== undefined
            ? { [resolved.sub!.name]: v[resolved.sub!.name] }
            : {};
        const previous = target[resolved.attribute.name];
        target[resolved.attribute.name] = Array.isArray(value)
          ? value.map((v, i) => ({ ...(Array.isArray(previous) ? (previous[i] as object) : {}), ...pick(v) }))
          : { ...(isPlainObject(previous) ? previous : {}), ...pick(value) };
      }
    }
    return shaped;
  }
  if (options.excluded && options.excluded.length > 0) {
    const shaped = structuredClone(resource);
    for (const resolved of options.excluded) {
      if (resolved.attribute.returned === 'always' || resolved.attribute.name === 'id') continue;
      const holder = container(resolved);
      const source = (holder ? shaped[holder] : shaped) as Record<string, unknown> | undefined;
      if (!source) continue;
      if (!resolved.sub) delete source[resolved.attribute.name];
      else {
        const value = source[resolved.attribute.name];
        for (const v of Array.isArray(value) ? value : [value])
          if (isPlainObject(v)) delete v[resolved.sub.name];
      }
    }
    return shaped;
  }
  return resource;
}

export { ScimError };
