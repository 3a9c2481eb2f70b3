import Joi from 'joi';
import { defineOperation } from '../../api/kernel/operation';
import { type SchemaType, typed } from '../../api/kernel/typedSchema';

const ACTIONS = ['start', 'stop'] as const;

const body = typed.object({
  version: typed.number().integer().min(0).required(),
  action: typed
    .string()
    .valid(...ACTIONS)
    .required(),
  comment: typed.string().max(10).allow('', null),
  tags: typed.array(typed.string()).max(3).default([]),
  due: typed.as<string | null, true>()(
    Joi.when('action', { is: 'stop', then: Joi.string(), otherwise: Joi.valid(null) }),
  ),
});

describe('typed schemas (api/kernel/typedSchema.ts)', () => {
  it('are the joi schemas Joi itself builds, so validation and the contract are unchanged', () => {
    const plain = Joi.object({
      version: Joi.number().integer().min(0).required(),
      action: Joi.string()
        .valid(...ACTIONS)
        .required(),
      comment: Joi.string().max(10).allow('', null),
      tags: Joi.array().items(Joi.string()).max(3).default([]),
      due: Joi.when('action', { is: 'stop', then: Joi.string(), otherwise: Joi.valid(null) }),
    });
    expect(Joi.isSchema(body)).toBe(true);
    expect(body.describe()).toEqual(plain.describe());
    expect(body.validate({ version: 1, action: 'start' }).value).toEqual({
      version: 1,
      action: 'start',
      tags: [],
    });
  });

  it('give an operation its request types: present keys required, the rest optional, literals kept', () => {
    const operation = defineOperation({
      operationId: 'test.typed',
      summary: 'A typed request.',
      method: 'POST',
      path: '/test/:id',
      minRole: 'REVIEWER',
      scopes: ['write'],
      idempotency: 'none',
      request: { params: typed.object({ id: typed.string().required() }), body },
      response: { status: 200, description: 'Nothing.' },
      async handler({ params, body: sent }) {
        const id: string = params.id;
        const action: 'start' | 'stop' = sent.action;
        const tags: string[] = sent.tags;
        const due: string | null = sent.due;
        // @ts-expect-error an optional key may be absent
        const comment: string | null = sent.comment;
        // @ts-expect-error no such parameter
        void params.other;
        return { body: { id, action, tags, due, comment } };
      },
    });
    const value: SchemaType<typeof body> = { version: 0, action: 'stop', tags: [], due: null };
    // @ts-expect-error `action` is one of the valid values
    const wrong: SchemaType<typeof body> = { version: 0, action: 'pause', tags: [], due: null };
    expect([operation.operationId, value.action, wrong.action]).toEqual(['test.typed', 'stop', 'pause']);
  });
});
