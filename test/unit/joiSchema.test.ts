import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import Joi from 'joi';
import { joiToJsonSchema, objectKeys } from '../../api/kernel/joiSchema';
import { caseInsensitive } from '../../api/kernel/jsonSchemaHelpers';
import { actionBody } from '../../api/math/tasks/schemas';
import { bigintString, businessId, dateTime } from '../../api/shared/schemas';

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);

const convert = (schema: Joi.Schema) => {
  const unsupported: string[] = [];
  const json = joiToJsonSchema(schema, { onUnsupported: (at, what) => unsupported.push(`${at}: ${what}`) });
  return { json, unsupported };
};

/** The converted schema must accept exactly what joi accepts (JSON bodies: no conversion) on every sample. */
function expectSameVerdicts(schema: Joi.Schema, samples: unknown[]): void {
  const { json, unsupported } = convert(schema);
  expect(unsupported).toEqual([]);
  const validate = ajv.compile(json);
  const disagreements = samples
    .map((sample) => ({
      sample,
      joi: schema.validate(sample, { convert: false }).error === undefined,
      jsonSchema: validate(sample),
    }))
    .filter((v) => v.joi !== v.jsonSchema);
  expect(disagreements).toEqual([]);
}

describe('joiToJsonSchema: strings', () => {
  it('refuses the empty string as joi does, unless a pattern already does or it is allowed', () => {
    expect(convert(Joi.string().max(5)).json).toEqual({ type: 'string', minLength: 1, maxLength: 5 });
    expect(convert(Joi.string().allow('')).json).toEqual({ type: 'string' });
    expect(convert(bigintString()).json).toEqual({ type: 'string', pattern: '^[1-9][0-9]{0,18}$' });
    expectSameVerdicts(Joi.string().max(5), ['', 'a', 'abcde', 'abcdef', 5, null]);
    expectSameVerdicts(Joi.string().min(2).allow(''), ['', 'a', 'ab', null]);
  });

  it('keeps bounds, patterns and formats', () => {
    expectSameVerdicts(Joi.string().pattern(/^batch-[0-9]{3,6}$/), [
      'batch-001',
      'batch-1',
      'xbatch-001',
      '',
    ]);
    expectSameVerdicts(Joi.string().pattern(/^[a-z]+$/, { invert: true }), ['abc', 'ABC', 'a1']);
    expectSameVerdicts(Joi.string().length(3), ['ab', 'abc', 'abcd']);
    expectSameVerdicts(Joi.string().uuid(), ['0b6b3cf4-6f0d-4f57-9c57-7f2b7d1b2a10', 'nope']);
    expectSameVerdicts(dateTime(), ['2024-05-01T10:00:00.000Z', 'yesterday']);
    expectSameVerdicts(businessId(), ['demo-q1-a', '-x', 'a'.repeat(129)]);
    expect(convert(Joi.string().email()).json).toMatchObject({ format: 'email' });
  });

  it('spells out the i flag, which JSON Schema patterns cannot carry', () => {
    const cases: Array<[RegExp, string[]]> = [
      [
        /^\d{4}-\d{2}-\d{2}T\d{2}(Z|[+-]\d{2}:\d{2})$/i,
        ['2024-01-02T10Z', '2024-01-02t10z', '2024-01-02x10Z'],
      ],
      [/^[a-f0-9]+$/i, ['abc123', 'ABC', 'aBg']],
      [/^[^x-z]\u0030\p{L}$/iu, ['a0B', 'X0b', 'b0b', 'b0-']],
      [/^(?<year>\d+)-\k<year>$/i, ['12-12', '12-13']],
    ];
    for (const [regex, samples] of cases) {
      const spelled = new RegExp(caseInsensitive(regex.source)!, 'u');
      for (const sample of samples)
        expect([sample, spelled.test(sample)]).toEqual([sample, regex.test(sample)]);
    }
    expectSameVerdicts(Joi.string().pattern(/^ab$/i), ['ab', 'AB', 'aB', 'abc']);
    expect(caseInsensitive('^\\u0041\\p{Lu}$')).toBeNull();
    expect(convert(Joi.string().pattern(/^\u0041$/i)).unsupported).toHaveLength(1);
  });

  it('reports a pattern whose flags JSON Schema cannot carry and leaves it out', () => {
    const { json, unsupported } = convert(Joi.string().pattern(/^abc$/m));
    expect(json).toEqual({ type: 'string', minLength: 1 });
    expect(unsupported).toEqual(['/: pattern /^abc$/m (flags "m" cannot be expressed)']);
  });

  it('leaves out normalising and custom rules without a report', () => {
    const schema = Joi.string()
      .trim()
      .lowercase()
      .custom((v: string) => v);
    expect(convert(schema)).toEqual({ json: { type: 'string', minLength: 1 }, unsupported: [] });
  });
});

describe('joiToJsonSchema: numbers, enums and null', () => {
  it('maps integer bounds, exclusive bounds and defaults', () => {
    expect(convert(Joi.number().integer().min(1).max(100).default(25)).json).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 25,
    });
    expectSameVerdicts(Joi.number().greater(0).less(1), [0, 0.5, 1, '0.5']);
    expectSameVerdicts(
      Joi.number().integer().min(1).max(2_147_483_647),
      [0, 1, 1.5, 2_147_483_647, 2_147_483_648],
    );
  });

  it('turns valid() into enum or const and allow(null) into a type list', () => {
    expect(convert(Joi.string().valid('A', 'B').allow(null)).json).toEqual({
      type: ['string', 'null'],
      enum: ['A', 'B', null],
    });
    expect(convert(Joi.valid('ws_genomics')).json).toEqual({ type: 'string', const: 'ws_genomics' });
    expect(convert(bigintString().allow(null)).json).toEqual({
      type: ['string', 'null'],
      pattern: '^[1-9][0-9]{0,18}$',
    });
    expectSameVerdicts(Joi.string().valid('A', 'B').allow(null), ['A', 'C', null, '']);
    expectSameVerdicts(Joi.object({ a: Joi.string() }).allow(null), [null, {}, { a: 'x' }, { b: 1 }]);
    expectSameVerdicts(Joi.number().invalid(3), [2, 3]);
  });
});

describe('joiToJsonSchema: objects and arrays', () => {
  it('sets additionalProperties: false where joi rejects unknown keys, and lists required keys', () => {
    const schema = Joi.object({ a: Joi.string().required(), b: Joi.number() });
    expect(convert(schema).json).toEqual({
      type: 'object',
      properties: { a: { type: 'string', minLength: 1 }, b: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    });
    expectSameVerdicts(schema, [{ a: 'x' }, { a: 'x', b: 1 }, { b: 1 }, { a: 'x', c: 1 }, null, []]);
  });

  it('allows any keys on a key-less Joi.object() and on .unknown(true)', () => {
    expect(convert(Joi.object()).json).toEqual({ type: 'object' });
    expectSameVerdicts(Joi.object(), [{}, { anything: [1] }, 'x']);
    expectSameVerdicts(Joi.object({ id: Joi.string() }).unknown(true), [{ id: 'a', more: 1 }, { id: 1 }]);
    expectSameVerdicts(Joi.object({}), [{}, { a: 1 }]);
  });

  it('maps array bounds, items and uniqueness', () => {
    const tags = Joi.array().items(Joi.string().max(64)).max(50).unique();
    expect(convert(tags).json).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 64 },
      maxItems: 50,
      uniqueItems: true,
    });
    expectSameVerdicts(tags, [[], ['a'], ['a', 'a'], Array(51).fill('x'), ['x'.repeat(65)], [1]]);
  });

  it('maps alternatives and object dependencies', () => {
    expectSameVerdicts(Joi.alternatives().try(Joi.string(), Joi.number()), ['a', 1, true]);
    expectSameVerdicts(Joi.object({ a: Joi.string(), b: Joi.string() }).xor('a', 'b'), [
      { a: 'x' },
      { b: 'x' },
      { a: 'x', b: 'y' },
      {},
    ]);
    expectSameVerdicts(Joi.object({ a: Joi.string(), b: Joi.string() }).with('a', 'b'), [
      { a: 'x' },
      { a: 'x', b: 'y' },
    ]);
  });

  it('describes keys one by one for query and path parameters', () => {
    const query = Joi.object({
      limit: Joi.number().integer().min(1).max(100).description('Page size.'),
      before: bigintString().required(),
    });
    expect(objectKeys(query)).toEqual([
      {
        name: 'limit',
        required: false,
        description: 'Page size.',
        schema: { type: 'integer', minimum: 1, maximum: 100 },
      },
      { name: 'before', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' } },
    ]);
  });
});

describe('joiToJsonSchema: when() on a sibling key', () => {
  it('publishes a permissive union and exact if/then/else rules for the math action body', () => {
    const { json, unsupported } = convert(actionBody);
    expect(unsupported).toEqual([]);
    const properties = json.properties as Record<string, { anyOf?: unknown[] }>;
    expect(properties.comment.anyOf).toHaveLength(2);
    expect(json.required).toEqual(['version', 'action']);
    expect(json.allOf).toHaveLength(4);
  });

  it('accepts and refuses exactly the action bodies joi does', () => {
    const comment = 'Looks right.';
    expectSameVerdicts(actionBody, [
      { version: 1, action: 'start' },
      { version: 1, action: 'start', comment },
      { version: 1, action: 'feedback', comment },
      { version: 1, action: 'feedback' },
      { version: 1, action: 'feedback', comment: '   ' },
      { version: 1, action: 'verdict', comment, decision: 'ACCEPTED' },
      { version: 1, action: 'verdict', comment },
      { version: 1, action: 'verdict', comment, decision: 'MAYBE' },
      { version: 1, action: 'assign', assignee_id: '12' },
      { version: 1, action: 'assign', assignee_id: null },
      { version: 1, action: 'assign' },
      { version: 1, action: 'assign', assignee_id: '012' },
      { version: 1, action: 'client', client_id: null },
      { version: 1, action: 'client', assignee_id: '3' },
      { version: 1, action: 'archive' },
      { version: 1, action: 'archive', comment: '' },
      { version: 1, action: 'restore', comment: null },
      { version: 1, action: 'restore', decision: 'ACCEPTED' },
      { version: -1, action: 'start' },
      { version: '1', action: 'start' },
      { version: 1, action: 'dance' },
      { version: 1, action: 'start', extra: true },
      { action: 'start' },
    ]);
  });

  it('reports a when() it cannot express and keeps the schema permissive', () => {
    const schema = Joi.object({
      a: Joi.string(),
      b: Joi.string().when('$context', { is: 1, then: Joi.required() }),
    });
    const { json, unsupported } = convert(schema);
    expect(unsupported).toHaveLength(1);
    expect((json.properties as Record<string, unknown>).b).toEqual({});
  });
});
