import { QueryFailedError } from 'typeorm';
import { isPostgresUnavailable, toApiError } from '../../api/kernel/app';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('toApiError and PostgreSQL outages', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['an administrator shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['a connection failure', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a TypeORM query failure over a dropped connection',
      new QueryFailedError('SELECT 1', [], withCode('terminating connection', '57P01')),
    ],
  ])('answers %s with 503 postgres and Retry-After', (_what, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
    const problem = toApiError(error);
    expect([problem.status, problem.code, problem.extensions.dependency]).toEqual([
      503,
      'dependency_unavailable',
      'postgres',
    ]);
    expect(Number(problem.headers['Retry-After'])).toBeGreaterThan(0);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('duplicate key', '23505'))],
    ['a syntax error', new QueryFailedError('SELEC', [], withCode('syntax error', '42601'))],
    ['a plain bug', new TypeError('x is undefined')],
  ])('keeps %s a bare 500', (_what, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
    expect(toApiError(error).status).toBe(500);
  });
});
