/**
 * Library errors translated to the error catalogue (errors.ts) by class, `type`, SQLSTATE or service-error name,
 * never by message text: a message a library adds later must not change what the client gets. Anything
 * unrecognised is a bare 500 (the request log records the error, never the request body). Node's HTTP parser
 * errors, which reach no middleware, are answered on the socket (`answerClientError`).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { S3ServiceException } from '@aws-sdk/client-s3';
import Joi from 'joi';
import type { Logger } from 'pino';
import { QueryFailedError } from 'typeorm';
import { ApiError, type FieldError, problems } from './errors';
import { mapTemporalError } from './temporal';

/** What raw-body, co-body, inflation and http-errors put on the errors they throw. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  limit?: number;
}

/** Socket errors, and SQLSTATEs of a server shutting down or refusing connections (class 08 is checked apart). */
const POSTGRES_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled (statement timeout)
  '40001', // serialization_failure: retrying succeeds
  '40P01', // deadlock_detected: retrying succeeds
]);
/** node-postgres's own connection failures carry no code (the one place a message is all there is). */
const POSTGRES_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Query read timeout', // the client's statement deadline (entities/poolDeadlines.ts)
];

type ErrorChainLink = { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };

/** The error, then its TypeORM `driverError` or `cause`, a few links deep. */
function* errorChain(error: unknown): Generator<ErrorChainLink> {
  let e = error as ErrorChainLink | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e;
    e = (e.driverError ?? e.cause) as ErrorChainLink | undefined;
  }
}

/**
 * True when an error means "PostgreSQL cannot answer right now" rather than "this query is wrong": a
 * connection failure, a shutdown, or a transaction the server aborted that a retry would pass.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  if (isS3Error(error)) return false;
  for (const e of errorChain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (POSTGRES_UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (POSTGRES_CONNECTION_MESSAGES.some((m) => message.startsWith(m))) return true;
  }
  return false;
}

/**
 * A query refused for its data (SQLSTATE class 22: out of range, invalid text, a NUL byte, untranslatable
 * characters): input the validators let through that the column cannot hold. Constraint violations (class 23)
 * stay 500: a handler must check what it inserts, so one reaching here is a bug.
 */
function isDataException(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/** Errors of the S3 SDK: its service exceptions, and transport failures it annotates with `$metadata`. */
function isS3Error(error: unknown): boolean {
  return (
    error instanceof S3ServiceException ||
    (typeof error === 'object' && error !== null && '$metadata' in error)
  );
}

/** S3 names and statuses that mean "the store is busy or down"; anything else from S3 is a 500. */
const S3_UNAVAILABLE_NAMES = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
  'TimeoutError',
]);

function s3Problem(error: unknown): ApiError {
  const name = (error as { name?: unknown }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const transport = !(error instanceof S3ServiceException);
  if (transport || S3_UNAVAILABLE_NAMES.has(String(name)) || (status !== undefined && status >= 500)) {
    return problems.unavailable('object storage');
  }
  return problems.internal();
}

/** joi's field errors, named from the request's root (`body.x`). */
export function fieldErrors(where: string, error: Joi.ValidationError): FieldError[] {
  return error.details.map((d) => ({
    path: [where, ...d.path.map(String)].join('.'),
    message: d.message.replace(/^"([^"]+)"/, (_m, label: string) => `${where}.${label}`),
  }));
}

/** raw-body / http-errors `type`s of a request body that could not be read. */
function httpLikeProblem(e: HttpLikeError): ApiError | null {
  const status = e.status ?? e.statusCode;
  switch (e.type) {
    case 'entity.parse.failed':
      return problems.malformedJson('The request body is not valid JSON.');
    case 'entity.too.large':
      return problems.payloadTooLarge(Number(e.limit ?? 0));
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problems.unsupportedMediaType('application/json in UTF-8, without a content encoding');
    case 'request.aborted':
      return problems.badRequest(
        'client_closed_request',
        'The client closed the request before its body ended.',
      );
    case 'request.size.invalid':
      return problems.badRequest('upload_incomplete', 'The body does not have its declared length.');
  }
  if (status === 413) return problems.payloadTooLarge(Number(e.limit ?? 0));
  if (status === 415)
    return problems.unsupportedMediaType('application/json in UTF-8, without a content encoding');
  if (e.expose === true && status !== undefined && status >= 400 && status < 500) {
    return problems.badRequest('bad_request', 'The request could not be read.');
  }
  return null;
}

/** Maps anything thrown to a catalogue entry; unknown errors become a bare 500 with no stack. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isS3Error(error)) return s3Problem(error);
  if (isPostgresUnavailable(error)) return problems.unavailable('postgres');
  if (isDataException(error)) {
    return problems.badRequest(
      'invalid_value',
      'A value in the request cannot be stored (out of range or not valid text).',
    );
  }
  if (Joi.isError(error)) return problems.validation(fieldErrors('body', error));
  const temporal = mapTemporalError(error, () => problems.internal());
  if (temporal !== error) return temporal as ApiError;
  if (error && typeof error === 'object')
    return httpLikeProblem(error as HttpLikeError) ?? problems.internal();
  return problems.internal();
}

/**
 * An error thrown while a JSON body was read and parsed: a `SyntaxError` there (JSON.parse, or bourne refusing
 * a `__proto__` key) is the client's malformed body; everything else goes through `toApiError`.
 */
export function bodyReadProblem(error: unknown): ApiError {
  if (error instanceof SyntaxError) return problems.malformedJson('The request body is not valid JSON.');
  return toApiError(error);
}

/** What Node's HTTP server keeps on a socket about the response in flight, if any. */
type HttpSocket = Duplex & { _httpMessage?: { headersSent?: boolean }; bytesRead?: number };

/** Node's parser codes with their own answer; any other parse failure is a 400. */
function problemFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return problems.headersTooLarge();
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problems.requestTimeout();
  return problems.badRequest('bad_request', 'The request is not valid HTTP/1.1.');
}

/**
 * The server's `clientError` listener: Node's answer to a request it cannot parse (oversized head, invalid
 * bytes, a request past its timeout), as problem+json like every other error, where Node would write a bare
 * 400, 408 or 431. Like Node's own listener it writes nothing once a response has begun on the socket (an
 * answer there would corrupt the response the client is reading) and nothing to a peer that went away.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger?: Logger): void {
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const problem = problemFor(error.code);
  // How much the client had sent tells a stalled request from an idle connection; the bytes are never logged.
  logger?.info(
    { code: error.code, status: problem.status, bytesRead: (socket as HttpSocket).bytesRead },
    'request refused by the HTTP parser',
  );
  const body = JSON.stringify(problem.toProblem());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
