import type Joi from 'joi';
import type Koa from 'koa';
import type { Role, Scope, ServiceName } from '../../entities/types';
import type { Principal } from './authenticate';
import type { AppDeps } from './deps';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How the request body is read before validation. */
export type BodyKind = 'json' | 'octet-stream' | 'multipart' | 'none';

export interface OperationRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  /** The validated Idempotency-Key header, when the operation takes one and the client sent it. */
  idempotencyKey: string | null;
  deps: AppDeps;
  /** The raw Koa context, for operations that stream bodies; most handlers never touch it. */
  koa: Koa.Context;
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
export interface Operation<P = any, Q = any, B = any> {
  operationId: string;
  summary: string;
  method: HttpMethod;
  /** Full path in Koa syntax (`/api/math/tasks/:task_id`), as written in the spec's endpoint table. */
  path: string;
  /** Lowest role allowed. `reviewerScope` marks the spec's "Reviewer*": a Reviewer sees only assigned tasks. */
  minRole: Role;
  reviewerScope?: 'assigned-tasks';
  scopes: Scope[];
  /** `required`: 400 without a valid Idempotency-Key; `optional`: honoured when sent. */
  idempotency: 'required' | 'optional' | 'none';
  /** What a retry with a used key gets: the stored receipt (default), or 409 where a replay must not repeat a secret. */
  idempotentReplay?: 'receipt' | 'conflict';
  request: {
    params?: Joi.ObjectSchema<P>;
    query?: Joi.ObjectSchema<Q>;
    body?: Joi.Schema<B>;
    bodyKind?: BodyKind;
    /** A JSON body this operation must accept even above the configured limit (the larger one applies). */
    minJsonBodyLimitBytes?: number;
  };
  response: { status: number; schema?: Joi.Schema; contentType?: string; description: string };
  /** Error statuses this operation documents besides the ones every operation may return. */
  errors?: number[];
  handler(request: OperationRequest<P, Q, B>): Promise<OperationResponse>;
}

export interface ServiceDefinition {
  name: ServiceName;
  title: string;
  version: string;
  operations: Operation[];
}

/** Types the handler's request from the schemas; the identity function otherwise. */
export const defineOperation = <P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  operation: Operation<P, Q, B>,
): Operation<P, Q, B> => operation;

/** A compatibility route: the same declaration under another path, never a copy of it. */
export const aliasOf = <P, Q, B>(
  operation: Operation<P, Q, B>,
  alias: { operationId: string; path: string; summary?: string },
): Operation<P, Q, B> => ({
  ...operation,
  ...alias,
  summary: alias.summary ?? `${operation.summary} (alias of ${operation.method} ${operation.path})`,
});
