import type Joi from 'joi';
import { type JoiDescription, presence } from './joiDescription';
import {
  caseInsensitive,
  isJsonValue,
  isPlainObject,
  jsonType,
  matchesEmpty,
  withNull,
} from './jsonSchemaHelpers';

/**
 * joi → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), from joi's public `describe()` output.
 *
 * Why not a library: `joi-to-json` (5.0.5, `open-api-3.1` mode) was evaluated. It handles patterns,
 * `allow(null)` → type arrays, `valid()` → enum and `.unknown(false)`, but it turns a key-less `Joi.object()`
 * (any keys allowed) into an object that allows none, renders `Joi.when` as an unconditional union under a
 * list of every JSON type, and does not express joi's default refusal of empty strings. Each would make the
 * published contract disagree with what the server accepts or returns, so this focused converter does it.
 *
 * Conventions:
 * - An object with declared keys that does not allow unknown keys gets `additionalProperties: false`.
 * - A `Joi.string()` refuses `''` unless allowed, so it gets `minLength: 1` (unless its pattern refuses it).
 * - A case-insensitive pattern (`/…/i`) is spelled out (`[Tt]`), since JSON Schema patterns take no flags.
 * - `Joi.when` on a sibling key (e.g. a field that depends on `action`) becomes a permissive union in
 *   `properties` (what renderers and type generators understand) plus exact `if`/`then`/`else` rules in the
 *   parent object's `allOf` (what validators enforce): which branch applies, and whether the key is then
 *   required or forbidden.
 * - Normalising rules (`trim`, `lowercase`, ...) describe conversions, not constraints, and `custom` rules
 *   are functions: both are left out.
 * - `.meta({ openapi: {...} })` merges its keywords into the key's schema: the way to document what a
 *   `custom` rule checks (for example a `description`).
 * Anything else joi can say that JSON Schema cannot is reported through `onUnsupported` and left out, so
 * the schema stays permissive rather than wrong.
 */

/** A JSON Schema object (2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

export interface JoiConversionOptions {
  /** Called for each joi construct left out of the schema; `at` is a JSON-pointer-like location. */
  onUnsupported?: (at: string, what: string) => void;
}

/** Converts a joi schema to a JSON Schema 2020-12 object. */
export function joiToJsonSchema(schema: Joi.Schema, options: JoiConversionOptions = {}): JsonSchema {
  return new Converter(options).convert(schema.describe() as JoiDescription, '');
}

/** The keys of a joi object schema, each with its JSON Schema and whether it is required. */
export function objectKeys(
  schema: Joi.Schema,
  options: JoiConversionOptions = {},
): Array<{ name: string; schema: JsonSchema; required: boolean; description?: string }> {
  const description = schema.describe() as JoiDescription;
  const converter = new Converter(options);
  return Object.entries(description.keys ?? {}).map(([name, key]) => {
    const converted = converter.convert(key, `/${name}`);
    const { description: text, ...rest } = converted;
    return {
      name,
      schema: rest,
      required: presence(key) === 'required',
      ...(typeof text === 'string' ? { description: text } : {}),
    };
  });
}

/**
 * Rules left out without a report: those that change the value (with conversion) rather than constrain it,
 * and `custom` functions, which no schema can express (the contract is then more permissive than the code).
 */
const PERMISSIVE_RULES = new Set(['trim', 'case', 'normalize', 'truncate', 'replace', 'precision', 'custom']);

/** String rules with an exact JSON Schema counterpart. */
const STRING_FORMATS: Record<string, JsonSchema> = {
  email: { format: 'email' },
  guid: { format: 'uuid' },
  isoDate: { format: 'date-time' },
  isoDuration: { format: 'duration' },
  hostname: { format: 'hostname' },
  domain: { format: 'hostname' },
  hex: { pattern: '^[0-9a-fA-F]*$' },
  alphanum: { pattern: '^[a-zA-Z0-9]*$' },
  token: { pattern: '^[a-zA-Z0-9_]*$' },
  base64: { contentEncoding: 'base64' },
};

/** One branch of a conditional key: the condition on the sibling (none: "otherwise") and the key's schema. */
interface Branch {
  is?: JoiDescription;
  schema: JoiDescription;
}

class Converter {
  constructor(private readonly options: JoiConversionOptions) {}

  private unsupported(at: string, what: string): void {
    this.options.onUnsupported?.(at || '/', what);
  }

  convert(d: JoiDescription, at: string): JsonSchema {
    if (d.whens?.length) return this.conditionalUnion(d, at);
    return this.annotate(d, this.withAllowedValues(d, this.byType(d, at), at), at);
  }

  /** Description, default and examples, which every type may carry. */
  private annotate(d: JoiDescription, schema: JsonSchema, at: string): JsonSchema {
    const out = { ...schema };
    if (typeof d.flags?.description === 'string') out.description = d.flags.description;
    if ('default' in (d.flags ?? {})) {
      const value = d.flags?.default;
      if (isJsonValue(value)) out.default = value;
      else this.unsupported(at, 'a computed default');
    }
    if (d.examples?.length) out.examples = d.examples.filter(isJsonValue);
    for (const meta of d.metas ?? []) {
      if (isPlainObject(meta) && isPlainObject((meta as { openapi?: unknown }).openapi)) {
        Object.assign(out, (meta as { openapi: JsonSchema }).openapi);
      }
    }
    return out;
  }

  private byType(d: JoiDescription, at: string): JsonSchema {
    switch (d.type) {
      case 'string':
        return this.string(d, at);
      case 'number':
        return this.number(d, at);
      case 'boolean':
        return { type: 'boolean' };
      case 'object':
        return this.object(d, at);
      case 'array':
        return this.array(d, at);
      case 'alternatives':
        return this.alternatives(d, at);
      case 'date':
        return { type: 'string', format: 'date-time' };
      case 'binary':
        return { type: 'string', contentMediaType: 'application/octet-stream' };
      case 'any':
        return {};
      default:
        this.unsupported(at, `joi type "${d.type}"`);
        return {};
    }
  }

  private string(d: JoiDescription, at: string): JsonSchema {
    const out: JsonSchema = { type: 'string' };
    const patterns: JsonSchema[] = [];
    let explicitMin = false;
    for (const rule of d.rules ?? []) {
      const limit = rule.args?.limit;
      switch (rule.name) {
        case 'min':
          out.minLength = limit;
          explicitMin = true;
          break;
        case 'max':
          out.maxLength = limit;
          break;
        case 'length':
          out.minLength = limit;
          out.maxLength = limit;
          explicitMin = true;
          break;
        case 'pattern': {
          const pattern = this.regex(rule.args?.regex, at);
          if (pattern === null) break;
          const invert = (rule.args?.options as { invert?: boolean } | undefined)?.invert === true;
          patterns.push(invert ? { not: { pattern } } : { pattern });
          break;
        }
        case 'uri': {
          const relative = (rule.args?.options as { allowRelative?: boolean } | undefined)?.allowRelative;
          out.format = relative ? 'uri-reference' : 'uri';
          break;
        }
        case 'ip': {
          const versions = (rule.args?.options as { version?: string[] } | undefined)?.version ?? [];
          if (versions.length === 1 && /^ipv[46]$/.test(versions[0])) out.format = versions[0];
          else this.unsupported(at, 'ip() with several versions');
          break;
        }
        default:
          if (STRING_FORMATS[rule.name]) Object.assign(out, STRING_FORMATS[rule.name]);
          else if (!PERMISSIVE_RULES.has(rule.name)) this.unsupported(at, `string rule "${rule.name}"`);
      }
    }
    const [first, ...more] = patterns;
    if (typeof first?.pattern === 'string') out.pattern = first.pattern;
    else if (first) more.unshift(first);
    if (more.length > 0) out.allOf = more;
    // joi refuses '' unless it is allowed (an allowed '' is handled with the other allowed values); say so
    // unless a bound or the pattern already does.
    const patternRefusesEmpty = typeof out.pattern === 'string' && !matchesEmpty(out.pattern);
    if (!explicitMin && !patternRefusesEmpty && !(d.allow ?? []).includes('') && !d.flags?.only) {
      return { type: 'string', minLength: 1, ...out };
    }
    return out;
  }

  /** joi describes a RegExp as its literal (`/^a$/i`); JSON Schema takes an ECMA-262 source without flags. */
  private regex(literal: unknown, at: string): string | null {
    if (typeof literal !== 'string') return null;
    const end = literal.lastIndexOf('/');
    const source = literal.slice(1, end);
    const flags = literal.slice(end + 1).replace(/[gy]/g, '');
    const spelled = flags === 'i' ? caseInsensitive(source) : null;
    if (spelled !== null) return spelled;
    if (flags) {
      this.unsupported(at, `pattern ${literal} (flags "${flags}" cannot be expressed)`);
      return null;
    }
    return source;
  }

  private number(d: JoiDescription, at: string): JsonSchema {
    const out: JsonSchema = { type: 'number' };
    for (const rule of d.rules ?? []) {
      const limit = rule.args?.limit;
      switch (rule.name) {
        case 'integer':
          out.type = 'integer';
          break;
        case 'min':
          out.minimum = limit;
          break;
        case 'max':
          out.maximum = limit;
          break;
        case 'greater':
          out.exclusiveMinimum = limit;
          break;
        case 'less':
          out.exclusiveMaximum = limit;
          break;
        case 'multiple':
          out.multipleOf = rule.args?.base;
          break;
        case 'sign':
          if (rule.args?.sign === 'positive') out.exclusiveMinimum = 0;
          else out.exclusiveMaximum = 0;
          break;
        case 'port':
          Object.assign(out, { type: 'integer', minimum: 0, maximum: 65535 });
          break;
        default:
          if (!PERMISSIVE_RULES.has(rule.name)) this.unsupported(at, `number rule "${rule.name}"`);
      }
    }
    return out;
  }

  private object(d: JoiDescription, at: string): JsonSchema {
    const out: JsonSchema = { type: 'object' };
    if (d.keys) {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      const conditions: JsonSchema[] = [];
      for (const [name, key] of Object.entries(d.keys)) {
        const where = `${at}/${name}`;
        if (key.whens?.length) {
          const conditional = this.conditionalKey(name, key, where);
          if (conditional.schema) properties[name] = conditional.schema;
          if (conditional.required) required.push(name);
          conditions.push(...conditional.rules);
          continue;
        }
        if (presence(key) === 'forbidden') {
          if (d.flags?.unknown) properties[name] = { not: {} };
          continue;
        }
        properties[name] = this.convert(key, where);
        if (presence(key) === 'required') required.push(name);
      }
      out.properties = properties;
      if (required.length > 0) out.required = required;
      if (conditions.length > 0) out.allOf = conditions;
    }
    if (d.patterns?.length) {
      const patternProperties: Record<string, JsonSchema> = {};
      for (const p of d.patterns) {
        const source = p.regex ? this.regex(p.regex, at) : null;
        if (source === null) this.unsupported(at, 'an object key pattern given as a schema');
        else patternProperties[source] = this.convert(p.rule, `${at}/${source}`);
      }
      out.patternProperties = patternProperties;
    }
    if (d.keys && !d.flags?.unknown) out.additionalProperties = false;
    for (const rule of d.rules ?? []) {
      const limit = rule.args?.limit;
      if (rule.name === 'min') out.minProperties = limit;
      else if (rule.name === 'max') out.maxProperties = limit;
      else if (rule.name === 'length') Object.assign(out, { minProperties: limit, maxProperties: limit });
      else if (!PERMISSIVE_RULES.has(rule.name)) this.unsupported(at, `object rule "${rule.name}"`);
    }
    for (const dependency of d.dependencies ?? []) this.dependency(out, dependency, at);
    return out;
  }

  private dependency(out: JsonSchema, dep: NonNullable<JoiDescription['dependencies']>[number], at: string) {
    const peers = dep.peers;
    if ([...peers, dep.key ?? ''].some((p) => p.includes('.'))) {
      return this.unsupported(at, `object dependency "${dep.rel}" on a nested key`);
    }
    const requiredOne = peers.map((p) => ({ required: [p] }));
    const add = (rule: JsonSchema) => {
      out.allOf = [...((out.allOf as JsonSchema[] | undefined) ?? []), rule];
    };
    switch (dep.rel) {
      case 'or':
        return add({ anyOf: requiredOne });
      case 'xor':
        return add({ oneOf: requiredOne });
      case 'with':
        return add({ dependentRequired: { [dep.key ?? '']: peers } });
      case 'without':
        return add({
          if: { required: [dep.key ?? ''] },
          then: { not: { anyOf: requiredOne } },
        });
      default:
        this.unsupported(at, `object dependency "${dep.rel}"`);
    }
  }

  private array(d: JoiDescription, at: string): JsonSchema {
    const out: JsonSchema = { type: 'array' };
    const items = (d.items ?? []).filter((i) => presence(i) !== 'forbidden');
    if (items.length === 1) out.items = this.convert(items[0], `${at}/items`);
    else if (items.length > 1)
      out.items = { anyOf: items.map((i, n) => this.convert(i, `${at}/items/${n}`)) };
    if (d.ordered?.length) {
      out.prefixItems = d.ordered.map((i, n) => this.convert(i, `${at}/prefixItems/${n}`));
      if (!d.items?.length) out.items = false;
    }
    for (const rule of d.rules ?? []) {
      const limit = rule.args?.limit;
      switch (rule.name) {
        case 'min':
          out.minItems = limit;
          break;
        case 'max':
          out.maxItems = limit;
          break;
        case 'length':
          Object.assign(out, { minItems: limit, maxItems: limit });
          break;
        case 'unique':
          out.uniqueItems = true;
          break;
        default:
          if (!PERMISSIVE_RULES.has(rule.name)) this.unsupported(at, `array rule "${rule.name}"`);
      }
    }
    return out;
  }

  private alternatives(d: JoiDescription, at: string): JsonSchema {
    const schemas: JsonSchema[] = [];
    for (const [n, match] of (d.matches ?? []).entries()) {
      if (match.schema) schemas.push(this.convert(match.schema, `${at}/anyOf/${n}`));
      else this.unsupported(at, 'a conditional alternative');
    }
    if (schemas.length === 0) return {};
    const keyword = d.flags?.match === 'one' ? 'oneOf' : d.flags?.match === 'all' ? 'allOf' : 'anyOf';
    return { [keyword]: schemas };
  }

  /** `allow(...)`, `valid(...)`, `invalid(...)` and `empty(...)`: values accepted or refused besides the type. */
  private withAllowedValues(d: JoiDescription, schema: JsonSchema, at: string): JsonSchema {
    const allowed = [...(d.allow ?? []), ...(d.flags?.empty?.allow ?? [])];
    const values = allowed.filter((v) => {
      if (isJsonValue(v)) return true;
      this.unsupported(at, 'an allowed value that is a reference');
      return false;
    });
    let out = schema;
    if (d.flags?.only) {
      out = { ...schema };
      const types = [...new Set(values.map(jsonType))];
      if (d.type === 'any' && types.length > 0) out.type = types.length === 1 ? types[0] : types;
      else if (values.includes(null) && out.type !== undefined) out.type = withNull(out.type);
      if (values.length === 1) out.const = values[0];
      else out.enum = values;
    } else if (values.length > 0) {
      const extra = values.filter((v) => !(v === '' && d.type === 'string' && out.minLength === undefined));
      const others = extra.filter((v) => v !== null);
      if (extra.includes(null) && typeof out.type === 'string' && others.length === 0) {
        out = { ...out, type: withNull(out.type) };
      } else if (extra.length > 0 && Object.keys(out).length > 0) {
        out = { anyOf: [out, { enum: extra }] };
      }
    }
    const refused = (d.invalid ?? []).filter(isJsonValue);
    if (refused.length > 0) out = { ...out, not: { enum: refused } };
    return out;
  }

  /** A joi `when` outside an object (nothing to condition on): the union of what it may accept. */
  private conditionalUnion(d: JoiDescription, at: string): JsonSchema {
    const branches = this.branches(d, at);
    if (!branches) return {};
    return this.union(
      branches.filter((b) => presence(b.schema) !== 'forbidden'),
      at,
    );
  }

  /**
   * A key whose schema depends on a sibling (`Joi.when('action', ...)`): the union of its non-forbidden
   * branches for `properties`, and `if`/`then`/`else` rules saying exactly which branch applies.
   */
  private conditionalKey(
    name: string,
    d: JoiDescription,
    at: string,
  ): { schema: JsonSchema | null; required: boolean; rules: JsonSchema[] } {
    const branches = this.branches(d, at);
    if (!branches) return { schema: {}, required: false, rules: [] };
    const allowed = branches.filter((b) => presence(b.schema) !== 'forbidden');
    const schema = allowed.length > 0 ? this.union(allowed, at) : null;
    const required = branches.every((b) => presence(b.schema) === 'required');
    const sibling = d.whens![0].ref!.path![0];

    const rule = (b: Branch): JsonSchema => {
      if (presence(b.schema) === 'forbidden') return { properties: { [name]: { not: {} } } };
      return {
        properties: { [name]: this.convert(b.schema, at) },
        ...(presence(b.schema) === 'required' ? { required: [name] } : {}),
      };
    };
    // The last branch is always the unconditional "otherwise", which ends the chain.
    const chain = (i: number): JsonSchema => {
      const b = branches[i];
      if (!b.is) return rule(b);
      return {
        if: {
          properties: { [sibling]: this.convert(b.is, `${at}/if`) },
          ...(presence(b.is) === 'required' ? { required: [sibling] } : {}),
        },
        then: rule(b),
        else: chain(i + 1),
      };
    };
    return { schema, required, rules: [chain(0)] };
  }

  /** The branches of a key's single `when`, in joi's order of evaluation; null when it cannot be expressed. */
  private branches(d: JoiDescription, at: string): Branch[] | null {
    const { whens, ...base } = d;
    const when = whens![0];
    const path = when.ref?.path;
    const sibling =
      whens!.length === 1 &&
      path?.length === 1 &&
      (when.ref?.ancestor ?? 1) === 1 &&
      (when.ref?.type ?? 'value') === 'value';
    if (!sibling || base.type !== 'any' || Object.keys(base).some((k) => k !== 'type' && k !== 'flags')) {
      this.unsupported(at, 'a when() other than one condition on a sibling key of an untyped key');
      return null;
    }
    // joi applies the key's own schema where a branch is missing.
    if (when.switch) {
      const otherwise = when.switch.at(-1)?.otherwise ?? when.otherwise ?? base;
      return [...when.switch.map((s) => ({ is: s.is, schema: s.then })), { schema: otherwise }];
    }
    return [{ is: when.is, schema: when.then ?? base }, { schema: when.otherwise ?? base }];
  }

  private union(branches: Branch[], at: string): JsonSchema {
    const schemas: JsonSchema[] = [];
    const seen = new Set<string>();
    for (const b of branches) {
      const schema = this.convert(b.schema, at);
      const key = JSON.stringify(schema);
      if (!seen.has(key)) {
        seen.add(key);
        schemas.push(schema);
      }
    }
    if (schemas.length === 1) return schemas[0];
    return { anyOf: schemas };
  }
}
