import Joi from 'joi';

/**
 * joi schemas that carry the TypeScript type of what they validate, so a request's type is read off its schema
 * rather than written beside it. Each builder returns the very joi schema `Joi` would (nothing wraps it at run
 * time, so validation, `describe()` and the OpenAPI documents are unchanged); only its static type says more:
 * the value's type, narrowed by `valid(...)` and widened by `allow(...)`, and whether the key is present after
 * validation (`required()` or `default(...)`). Methods that do not change the type (`max`, `pattern`, `custom`,
 * ...) keep it, since joi's own methods return `this`.
 *
 * Why not a typed validator with joi behind it (zod, TypeBox, ...): the published contract is rendered from joi's
 * `describe()` (joiSchema.ts), so joi stays the one schema language; a second one would need its own converter and
 * could not promise the same documents.
 */

declare const carried: unique symbol;

type Present = boolean;
type Literal = string | number | boolean | null;

/** What a typed schema carries for the type checker only: the validated value's type and its key's presence. */
interface Carries<T, P extends Present> {
  readonly [carried]: { value: T; present: P };
}

/** The methods whose result has another type than their receiver's; listed first, so they win over joi's `this`. */
interface Retyping<T, P extends Present, S extends Joi.Schema> {
  required(): Typed<T, true, S>;
  optional(): Typed<T, false, S>;
  default(
    value?: Joi.BasicType | Joi.Reference | ((parent: unknown, helpers: Joi.CustomHelpers) => unknown),
  ): Typed<T, true, S>;
  allow<const V extends Literal>(...values: V[]): Typed<T | V, P, S>;
  valid<const V extends Literal>(...values: V[]): Typed<V, P, S>;
}

/** A joi schema of kind `S` whose valid values are `T`; `P`: whether its key is present after validation. */
export type Typed<T, P extends Present, S extends Joi.Schema> = Retyping<T, P, S> & S & Carries<T, P>;

/** Any typed schema: what a typed object's keys must be. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TypedSchema = Carries<any, Present> & Joi.Schema;

/** The type of the values a typed schema lets through (after defaults and conversions). */
export type SchemaType<S extends TypedSchema> = S[typeof carried]['value'];

/** What a key's schema carries; a key spread in conditionally (`...(c ? { key } : {})`) is optional either way. */
type CarriedBy<S> =
  Exclude<S, undefined> extends Carries<infer T, infer P> ? { value: T; present: P } : never;

type RequiredKeys<K extends Record<string, TypedSchema>> = {
  [N in keyof K]-?: undefined extends K[N] ? never : CarriedBy<K[N]>['present'] extends true ? N : never;
}[keyof K];

type Simplify<T> = { [N in keyof T]: T[N] } & {};

/** The object a typed object schema's keys describe: present keys required, the others optional. */
export type ObjectType<K extends Record<string, TypedSchema>> = Simplify<
  { [N in RequiredKeys<K>]: CarriedBy<K[N]>['value'] } & {
    [N in Exclude<keyof K, RequiredKeys<K>>]?: CarriedBy<K[N]>['value'];
  }
>;

/** A typed object schema (also a `Joi.ObjectSchema<T>`, so validation returns `T`). */
export type TypedObject<T, P extends Present = false> = Typed<T, P, Joi.ObjectSchema<T>>;

/**
 * The typed counterparts of `Joi.string()`, `Joi.number()`, ... Where a schema's value has a type joi cannot say
 * (a `Joi.when`, an `alternatives`), `typed.as<T>()` names it once, on the schema itself.
 */
export const typed = {
  string: (): Typed<string, false, Joi.StringSchema> => Joi.string() as never,
  number: (): Typed<number, false, Joi.NumberSchema> => Joi.number() as never,
  boolean: (): Typed<boolean, false, Joi.BooleanSchema> => Joi.boolean() as never,
  /** `Joi.object(keys)`: unknown keys refused, as joi does. */
  object: <K extends Record<string, TypedSchema>>(keys: K): TypedObject<ObjectType<K>> =>
    Joi.object(keys) as never,
  /** `Joi.array().items(item)`. */
  array: <I extends TypedSchema>(item: I): Typed<SchemaType<I>[], false, Joi.ArraySchema<SchemaType<I>[]>> =>
    Joi.array().items(item) as never,
  /** A joi schema whose value's type is `T` (`P`: present after validation), named where joi cannot infer it. */
  as:
    <T, P extends Present = false>() =>
    <S extends Joi.Schema>(schema: S): Typed<T, P, S> =>
      schema as never,
};
