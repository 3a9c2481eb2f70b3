import { type Filter, filter as compile, parse } from 'scim2-parse-filter';
import { scimErrors } from './errors';
import { resolvePath } from './resources';
import type { AttributeDefinition, ResourceTypeDefinition } from './schemas';

/** A parsed `filter`: a test over presented resources, and the one indexed lookup it may reduce to. */
export interface CompiledFilter {
  test: (resource: Record<string, unknown>) => boolean;
  /** Set when the filter is a single `eq` on an attribute with an index (userName, externalId, displayName). */
  indexed?: { attribute: 'userName' | 'externalId' | 'displayName'; value: string };
}

const MAX_FILTER_LENGTH = 2000;
const INDEXED = { User: ['userName', 'externalId'], Group: ['displayName', 'externalId'] } as const;

/**
 * Parses a SCIM filter (RFC 7644 §3.4.2.2) with scim2-parse-filter; every attribute it names must be declared,
 * and attributes that are not `caseExact` (userName, emails.value, …) compare without regard to case. A filter
 * that does not parse or names an unknown attribute is a 400 `invalidFilter`.
 */
export function compileFilter(type: ResourceTypeDefinition, text: string | undefined): CompiledFilter | null {
  if (text === undefined || text.trim() === '') return null;
  if (text.length > MAX_FILTER_LENGTH)
    throw scimErrors.badRequest(
      'invalidFilter',
      `The filter is longer than ${MAX_FILTER_LENGTH} characters.`,
    );
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (error) {
    throw scimErrors.badRequest(
      'invalidFilter',
      `The filter does not parse: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const folded = new Set<string>();
  const checked = check(type, ast, null, folded);
  const test = compile(checked);
  const indexed =
    checked.op === 'eq' &&
    typeof checked.compValue === 'string' &&
    (INDEXED[type.name] as readonly string[]).includes(canonical(type, checked.attrPath))
      ? {
          attribute: canonical(type, checked.attrPath) as 'userName' | 'externalId' | 'displayName',
          value: checked.compValue,
        }
      : undefined;
  return { test: (resource) => test(foldCase(resource, folded) as Record<string, unknown>), indexed };
}

const canonical = (type: ResourceTypeDefinition, path: string) =>
  resolvePath(type, path)?.attribute.name ?? path;

/** Checks every attribute of the filter and lowercases the values compared with case-insensitive ones. */
function check(
  type: ResourceTypeDefinition,
  node: Filter,
  parent: AttributeDefinition | null,
  folded: Set<string>,
): Filter {
  switch (node.op) {
    case 'and':
    case 'or':
      return { ...node, filters: node.filters.map((f) => check(type, f, parent, folded)) };
    case 'not':
      return { ...node, filter: check(type, node.filter, parent, folded) };
    case '[]': {
      const resolved = resolvePath(type, node.attrPath);
      if (!resolved || resolved.sub || resolved.attribute.type !== 'complex')
        throw scimErrors.badRequest(
          'invalidFilter',
          `"${node.attrPath}" is not a complex attribute of ${type.name}.`,
        );
      return { ...node, valFilter: check(type, node.valFilter, resolved.attribute, folded) };
    }
    default: {
      const definition = attributeOf(type, node.attrPath, parent);
      const whole = !parent && resolvePath(type, node.attrPath)?.attribute.type === 'complex';
      // `emails eq "…"` compares the values of a complex attribute (RFC 7644 §3.4.2.2).
      if (whole && !node.attrPath.includes('.')) node = { ...node, attrPath: `${node.attrPath}.value` };
      if (definition.returned === 'never')
        throw scimErrors.badRequest('invalidFilter', `"${node.attrPath}" cannot be filtered on.`);
      if (node.op === 'pr') return node;
      if (definition.type === 'boolean' && !['eq', 'ne'].includes(node.op))
        throw scimErrors.badRequest('invalidFilter', `"${node.attrPath}" is a boolean: use eq or ne.`);
      if (typeof node.compValue !== 'string' || definition.caseExact) return node;
      folded.add(definition.name.toLowerCase());
      return { ...node, compValue: node.compValue.toLowerCase() };
    }
  }
}

function attributeOf(type: ResourceTypeDefinition, path: string, parent: AttributeDefinition | null) {
  if (parent) {
    const sub = parent.subAttributes?.find((a) => a.name.toLowerCase() === path.toLowerCase());
    if (sub) return sub;
  } else {
    const resolved = resolvePath(type, path);
    // `emails` alone filters on its values (RFC 7644 §3.4.2.2).
    if (resolved)
      return (
        resolved.sub ??
        resolved.attribute.subAttributes?.find((a) => a.name === 'value') ??
        resolved.attribute
      );
  }
  throw scimErrors.badRequest('invalidFilter', `"${path}" is not an attribute of ${type.name}.`);
}

/** A copy of a resource whose string values under case-insensitive attribute names are lowercased. */
function foldCase(value: unknown, folded: Set<string>, fold = false): unknown {
  if (typeof value === 'string') return fold ? value.toLowerCase() : value;
  if (Array.isArray(value)) return value.map((v) => foldCase(v, folded, fold));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, foldCase(v, folded, folded.has(k.toLowerCase()))]),
    );
  }
  return value;
}
