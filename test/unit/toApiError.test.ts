import { S3ServiceException } from '@aws-sdk/client-s3';
import { WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { google, temporal } from '@temporalio/proto';
import Joi from 'joi';
import { QueryFailedError } from 'typeorm';
import { bodyReadProblem, isPostgresUnavailable, toApiError } from '../../api/kernel/errorTranslation';
import { assertSafeJson, MAX_JSON_DEPTH } from '../../api/kernel/jsonBody';
import { serializeError } from '../../logging/logger';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** The answer to a dependency that is down: 503 naming it, with Retry-After. */
function expectUnavailable(error: unknown, dependency: string): void {
  const problem = toApiError(error);
  expect([problem.status, problem.code, problem.extensions.dependency]).toEqual([
    503,
    'dependency_unavailable',
    dependency,
  ]);
  expect(Number(problem.headers['Retry-After'])).toBeGreaterThan(0);
}

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
    ['the client statement deadline (entities/poolDeadlines.ts)', new Error('Query read timeout')],
    [
      'a TypeORM query failure over a dropped connection',
      new QueryFailedError('SELECT 1', [], withCode('terminating connection', '57P01')),
    ],
  ])('answers %s with 503 postgres and Retry-After', (_what, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
    expectUnavailable(error, 'postgres');
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

describe('toApiError classifies library errors by class, type or code, never by message', () => {
  const bodyParserError = (type: string, status: number) =>
    Object.assign(new Error('any message at all'), { type, status, expose: true, body: 'secret body' });

  it.each([
    ['raw-body: too large', bodyParserError('entity.too.large', 413), 413, 'payload_too_large'],
    ['raw-body: charset', bodyParserError('charset.unsupported', 415), 415, 'unsupported_media_type'],
    ['raw-body: encoding', bodyParserError('encoding.unsupported', 415), 415, 'unsupported_media_type'],
    ['raw-body: aborted', bodyParserError('request.aborted', 400), 400, 'client_closed_request'],
    ['raw-body: wrong length', bodyParserError('request.size.invalid', 400), 400, 'upload_incomplete'],
    [
      'http-errors: any exposed 4xx',
      Object.assign(new Error('x'), { status: 400, expose: true }),
      400,
      'bad_request',
    ],
    [
      'a data exception (22P05)',
      new QueryFailedError('INSERT', [], withCode('x', '22P05')),
      400,
      'invalid_value',
    ],
    [
      'a serialization failure',
      new QueryFailedError('UPDATE', [], withCode('x', '40001')),
      503,
      'dependency_unavailable',
    ],
  ])('%s', (_what, error, status, code) => {
    expect([toApiError(error).status, toApiError(error).code]).toEqual([status, code]);
  });

  it('reads a JSON parse failure (even a new message, such as a forbidden __proto__) as malformed_json', () => {
    const poisoned = Object.assign(new SyntaxError('Object contains forbidden prototype property'), {
      status: 400,
      body: '{"__proto__":{}}',
    });
    expect(bodyReadProblem(poisoned).code).toBe('malformed_json');
    expect(bodyReadProblem(new SyntaxError('a message no one has seen yet')).code).toBe('malformed_json');
  });

  it('keeps a SyntaxError outside body parsing a 500 (a bug, not bad input)', () => {
    expect(toApiError(new SyntaxError('Unexpected token')).status).toBe(500);
  });

  it('maps joi validation errors to field errors', () => {
    const { error } = Joi.object({ a: Joi.number() }).validate({ a: 'x' }, { convert: false });
    const problem = toApiError(error);
    expect([problem.status, problem.code]).toEqual([400, 'validation_failed']);
    expect(problem.extensions.errors).toEqual([{ path: 'body.a', message: 'body.a must be a number' }]);
  });

  it('maps S3 by exception name and status, not as PostgreSQL, even over a refused socket', () => {
    const slowDown = new S3ServiceException({
      name: 'SlowDown',
      $fault: 'server',
      $metadata: { httpStatusCode: 503 },
    });
    expect(toApiError(slowDown).extensions.dependency).toBe('object storage');
    const refused = Object.assign(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), {
      $metadata: { attempts: 3 },
    });
    expect(toApiError(refused).extensions.dependency).toBe('object storage');
    const denied = new S3ServiceException({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 403 },
    });
    expect(toApiError(denied).status).toBe(500);
  });

  it('maps Temporal through mapTemporalError', () => {
    const timeout = new WorkflowUpdateRPCTimeoutOrCancelledError('deadline', { cause: new Error('x') });
    expect(toApiError(timeout).extensions.dependency).toBe('temporal');
  });
});

/** A gRPC error as the client raises it, with its google.rpc.Status details in the trailing metadata. */
function grpcError(code: number, message: string, details: google.protobuf.IAny[]) {
  const status = Buffer.from(google.rpc.Status.encode({ code, message, details }).finish());
  const metadata = { get: (key: string) => (key === 'grpc-status-details-bin' ? [status] : []) };
  return Object.assign(new Error(`${code} ${message}`), { code, details: message, metadata });
}
const typeUrl = (name: string) => `type.googleapis.com/${name}`;
const notReady = {
  type_url: typeUrl('temporal.api.errordetails.v1.WorkflowNotReadyFailure'),
  value: Buffer.alloc(0),
};
/** What update-with-start raises: the failed operation's status among the per-operation statuses. */
const multiOperation = (statuses: google.rpc.IStatus[]) =>
  grpcError(9, 'Update-with-Start could not be executed.', [
    {
      type_url: typeUrl('temporal.api.errordetails.v1.MultiOperationExecutionFailure'),
      value: temporal.api.errordetails.v1.MultiOperationExecutionFailure.encode({ statuses }).finish(),
    },
  ]);
const aborted = {
  code: 10,
  message: 'Operation was aborted.',
  details: [
    { type_url: typeUrl('temporal.api.failure.v1.MultiOperationExecutionAborted'), value: Buffer.alloc(0) },
  ],
};

describe('toApiError and a workflow whose task is failing', () => {
  it.each([
    ['a plain update', grpcError(9, 'Workflow Task in failed state.', [notReady])],
    [
      'update-with-start',
      multiOperation([aborted, { code: 9, message: 'Workflow Task in failed state.', details: [notReady] }]),
    ],
  ])('answers %s refused as not ready with 503 temporal and Retry-After', (_what, error) => {
    expectUnavailable(error, 'temporal');
  });

  it.each([
    ['without details', grpcError(9, 'precondition', [])],
    ['with another operation failure', multiOperation([aborted, { code: 9, message: 'other', details: [] }])],
    [
      'with details that do not decode',
      Object.assign(new Error('9 precondition'), {
        code: 9,
        details: 'precondition',
        metadata: { get: () => [Buffer.from([0x0a, 0xff, 0xff, 0xff])] },
      }),
    ],
  ])('keeps another FAILED_PRECONDITION (%s) a bare 500', (_what, error) => {
    expect(toApiError(error).status).toBe(500);
  });
});

describe('assertSafeJson', () => {
  const deep = (levels: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key at any depth, naming where', (key) => {
    const own = JSON.parse(`{"${key}":{"x":1}}`) as unknown;
    expect(() => assertSafeJson(own)).toThrow(expect.objectContaining({ code: 'malformed_json' }));
    try {
      assertSafeJson(deep(9, own));
    } catch (error) {
      expect(error).toMatchObject({ code: 'malformed_json', status: 400 });
      expect((error as Error).message).toContain(`"${key}" at body.a.0.a`);
      return;
    }
    throw new Error('not refused');
  });

  it('refuses 100,000 levels of nesting without overflowing the stack, and accepts 60', () => {
    expect(() => assertSafeJson(deep(100_000, 1))).toThrow(
      expect.objectContaining({ code: 'malformed_json' }),
    );
    expect(() =>
      assertSafeJson(deep(MAX_JSON_DEPTH - 4, { name: 'ok', list: [1, 'two', null] })),
    ).not.toThrow();
  });

  it('accepts the same words as values', () => {
    expect(() => assertSafeJson({ comment: '__proto__', tags: ['constructor', 'prototype'] })).not.toThrow();
  });
});

describe('the error serializer of the logs', () => {
  it('keeps the error and drops the request body a parser put on it (and on its cause)', () => {
    const error = Object.assign(new SyntaxError('bad'), {
      status: 400,
      body: '{"password":"hunter2"}',
      cause: Object.assign(new Error('inner'), { rawBody: 'hunter2' }),
    });
    const serialized = JSON.stringify(serializeError(error));
    expect(serialized).toContain('SyntaxError');
    expect(serialized).toContain('bad');
    expect(serialized).not.toContain('hunter2');
  });
});
