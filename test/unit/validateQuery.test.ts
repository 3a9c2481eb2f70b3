import Joi from 'joi';
import { ApiError } from '../../api/kernel/errors';
import { validateQuery } from '../../api/kernel/validation';

const schema = Joi.object({
  page: Joi.number().integer().min(1).default(1),
  state: Joi.array().items(Joi.string().valid('OPEN', 'DONE')).single(),
});

describe('validateQuery', () => {
  it('answers a query string asked again as it answered it first, each caller with its own copy', () => {
    const first = validateQuery<{ page: number; state?: string[] }>('test.a', schema, 'page=2&state=OPEN', {
      page: '2',
      state: 'OPEN',
    });
    expect(first).toEqual({ page: 2, state: ['OPEN'] });
    first.state?.push('DONE');
    const again = validateQuery('test.a', schema, 'page=2&state=OPEN', { page: '2', state: 'OPEN' });
    expect(again).toEqual({ page: 2, state: ['OPEN'] });
    expect(again).not.toBe(first);
  });

  it('refuses a bad query string every time it is sent', () => {
    for (let i = 0; i < 2; i++)
      expect(() => validateQuery('test.b', schema, 'page=0', { page: '0' })).toThrow(ApiError);
  });

  it('keeps the answers of two operations apart', () => {
    const other = Joi.object({ page: Joi.number().integer().max(1) });
    expect(validateQuery('test.c', schema, 'page=3', { page: '3' })).toEqual({ page: 3 });
    expect(() => validateQuery('test.d', other, 'page=3', { page: '3' })).toThrow(ApiError);
  });
});
