import type { Readable } from 'node:stream';
import type Joi from 'joi';
import type { Role, Scope, ServiceName } from '../../entities/types';
import type { AuthenticatorFactory, Principal } from './authenticate';
import type { AppDeps } from './deps';
import type { ReceiptTransaction } from './idempotency';
import type { ProblemCatalogue, ProblemCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How the request body is read before validation. */
export type BodyKind = 'json' | 'octet-stream' | 'multipart' | 'none';

/** The headers of an operation that declares none: reading any name is a type error. */
export type NoHeaders = Record<never, never>;

/**
 * What a handler that streams may use of the HTTP exchange: the unread body, its framing and the response's
 * lifecycle. Not the Koa context: a handler reads headers only through its declaration (`headers`).
 */
export interface HttpExchange {
  /** The request path, for idempotency fingerprints and audit rows. */
  path: string;
  /** The unread request body (octet-stream and multipart operations). */
  body: Readable & { readonly complete: boolean };
  /** Framing, not inputs: the media type without parameters, and the whole Content-Type (multipart boundary). */
  mediaType: string;
  contentType: string;
  /** The Content-Length header as sent ('' when absent), and whether the body is chunked. */
  contentLength: string;
  chunked: boolean;
  /** The response's end, to stop work when the client goes away. */
  response: {
    readonly writableFinished: boolean;
    once(event: 'close', listener: () => void): unknown;
    off(event: 'close', listener: () => void): unknown;
  };
}

/** What an operation's `prepare` reads with: the validated request and the caller, nothing that writes. */
export interface PrepareRequest<P, Q, B, H = NoHeaders> {
  params: P;
  query: Q;
  body: B;
  /** The declared headers only (`request.headers`), validated; any other header is absent. */
  headers: Readonly<H>;
  principal: Principal;
  deps: AppDeps;
}

export interface OperationRequest<P, Q, B, H = NoHeaders, R = undefined> extends PrepareRequest<P, Q, B, H> {
  /** The validated Idempotency-Key header, when the operation takes one and the client sent it. */
  idempotencyKey: string | null;
  /** What the operation's `prepare` read (undefined when it declares none). */
  prepared: R;
  /** The body stream and the response, for operations that stream; most handlers never touch it. */
  http: HttpExchange;
  /**
   * The transaction an operation that writes only PostgreSQL makes its writes and builds its response in: under an
   * Idempotency-Key the receipt commits with them (see {@link ReceiptTransaction}). At most once per request.
   */
  transaction: ReceiptTransaction;
  /**
   * The Idempotency-Key claim of a streamed-body operation (octet-stream, multipart), which the kernel makes once
   * the handler names what identifies the body it has read (the bytes' SHA-256 and the metadata): under a key,
   * `store` runs at most once and writes through the receipt's transaction, and a retry gets the receipt; without
   * one it just runs. Any other operation's key is claimed before its handler, so there it throws.
   */
  idempotent(
    identity: unknown,
    store: (transaction: ReceiptTransaction) => Promise<OperationResponse>,
  ): Promise<OperationResponse>;
}

export interface OperationResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One HTTP operation, declared once. Routing, authentication, role and scope checks, request
 * validation, idempotency, response validation in tests and the OpenAPI document all derive from it.
 */
// `any` defaults let operations with different request types share one list (handler parameters are contravariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Operation<P = any, Q = any, B = any, H = any, R = any> {
  operationId: string;
  summary: string;
  method: HttpMethod;
  /** Full path in Koa syntax (`/api/v1/topics/:topicUid/events`), as written in the spec's endpoint table. */
  path: string;
  /** Lowest role allowed. `reviewerScope` marks the spec's "Reviewer*": a Reviewer sees only assigned tasks. */
  minRole: Role;
  reviewerScope?: 'assigned-tasks';
  scopes: Scope[];
  /**
   * `required`: 400 without a valid Idempotency-Key; `optional`: honoured when sent. The kernel claims the key:
   * before the handler, or for a streamed body when the handler has read it (`idempotent`).
   */
  idempotency: 'required' | 'optional' | 'none';
  /** What a retry with a used key gets: the stored receipt (default), or 409 where a replay must not repeat a secret. */
  idempotentReplay?: 'receipt' | 'conflict';
  request: {
    params?: Joi.ObjectSchema<P>;
    query?: Joi.ObjectSchema<Q>;
    /** Headers the handler reads (lower-case names); only these reach it, and the contract lists them. */
    headers?: Joi.ObjectSchema<H>;
    body?: Joi.Schema<B>;
    bodyKind?: BodyKind;
    /** A JSON body this operation must accept even above the configured limit (the larger one applies). */
    minJsonBodyLimitBytes?: number;
  };
  response: { status: number; schema?: Joi.Schema; contentType?: string; description: string };
  /**
   * An addition to the service's contract (its spec does not describe it): marked `x-extension` in the OpenAPI
   * document and on /docs. Webhooks are the one such resource.
   */
  extension?: boolean;
  /**
   * Errors this operation documents besides the ones every operation may return: a status, or a problem code
   * (documented under the one status its catalogue gives it).
   */
  errors?: (number | ProblemCode)[];
  /**
   * A JSON body example per name, each accepted by the operation as documented (a test sends every one).
   * Path parameters are not part of an example. Checked against the body's type, never a source of it.
   */
  examples?: Record<string, { summary: string; value: NoInfer<B> }>;
  /**
   * Reads the handler needs before it changes anything (the record it acts on, found with the caller's visibility,
   * and the checks of its inputs against stored data), run alongside the Idempotency-Key claim so they add no round
   * trip of their own; the handler gets the result as `prepared`. A replayed receipt or a refused claim answers
   * first; otherwise an error of `prepare` answers the request (and releases the claim). It must change nothing.
   */
  prepare?(request: PrepareRequest<P, Q, B, H>): Promise<R>;
  handler(request: OperationRequest<P, Q, B, H, R>): Promise<OperationResponse>;
}

export interface ServiceDefinition {
  name: ServiceName;
  title: string;
  version: string;
  operations: Operation[];
  /** The credentials the service accepts, first claim wins; default: API keys only. */
  authenticators?: AuthenticatorFactory[];
  /** What the service's published OpenAPI document says of itself; the kernel renders it as declared. */
  openApi: ServiceOpenApi;
  /** The problem codes the service answers with besides the kernel's (the /docs/problems page lists them). */
  problemTypes: ProblemCatalogue;
}

/** The service-specific texts and facts of a published OpenAPI document. */
export interface ServiceOpenApi {
  /** `info.description`. */
  description: string;
  /** Path prefixes stripped before the first segment names an operation's tag, longest first. */
  pathPrefixes: string[];
  /** `bearerFormat` of the API key security scheme. */
  bearerFormat: string;
  /** Description of the API key security scheme (see `API_KEY_SECURITY_DESCRIPTION`). */
  securityDescription: string;
  /** Error statuses the service's contract lets every operation answer with. */
  everyOperationMayAnswer?: number[];
  /** Description of the shared problem response per status; others read as the status text. */
  problemDescriptions: Partial<Record<number, string>>;
  /** The events the service sends to webhook endpoints: OpenAPI 3.1's top-level `webhooks`, one per type. */
  webhooks?: Record<string, OutgoingWebhook>;
}

/** One outgoing webhook event: its JSON body (the whole envelope) and an example of it. */
export interface OutgoingWebhook {
  summary: string;
  schema: Joi.Schema;
  example: unknown;
  /** Who receives it, when not every endpoint subscribed to its type (a compensating event). */
  recipients?: string;
}

/** Types the handler's request from the schemas; the identity function otherwise. */
export const defineOperation = <
  P = Record<string, never>,
  Q = Record<string, never>,
  B = undefined,
  H = NoHeaders,
  R = undefined,
>(
  operation: Operation<P, Q, B, H, R>,
): Operation<P, Q, B, H, R> => operation;

/** A compatibility route: the same declaration under another path, never a copy of it. */
export const aliasOf = <P, Q, B, H, R>(
  operation: Operation<P, Q, B, H, R>,
  alias: { operationId: string; path: string; summary?: string },
): Operation<P, Q, B, H, R> => ({
  ...operation,
  ...alias,
  summary: alias.summary ?? `${operation.summary} (alias of ${operation.method} ${operation.path})`,
});
