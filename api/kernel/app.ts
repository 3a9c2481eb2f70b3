import { createHash, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Joi from 'joi';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { recordWriteRequest as insertWriteRequest } from '../../access/authQueries';
import { sourceAddress } from './authFailureAudit';
import {
  apiKeyAuthenticator,
  type Authenticator,
  AuthenticationError,
  authenticate,
  authFailureProblem,
  confirmAssertionBody,
  type Principal,
} from './authenticate';
import type { AppDeps } from './deps';
import {
  authenticateConsoleSession,
  consoleCookieName,
  consoleOrigin,
  CSRF_HEADER,
  refuseSession,
  sameOriginWrite,
  SESSION_COOKIE,
  soleCookie,
} from './consoleSession';
import { bodyReadProblem, toApiError } from './errorTranslation';
import { ApiError, problems } from './errors';
import {
  credentialScope,
  IDEMPOTENT_REPLAYED,
  idempotencyKeySchema,
  plainTransaction,
  type ReceiptTransaction,
  requestFingerprint,
  runIdempotently,
} from './idempotency';
import { assertSafeJson } from './jsonBody';
import type { HttpExchange, Operation, OperationResponse, ServiceDefinition } from './operation';
import { rateLimitHeaders } from './rateLimit';
import { atLeast, missingScopes } from '../../access/roles';
import { validateHeaders, validatePart, validateQuery } from './validation';

const PROBLEM_JSON = 'application/problem+json';

/** Extra routes that need no credential (health, published contracts, docs). */
export type PublicRoute = (router: Router) => void;

/** Builds the Koa application serving every declared operation of the given services. */
export function createApp(
  deps: AppDeps,
  services: ServiceDefinition[],
  publicRoutes: PublicRoute[] = [],
): Koa {
  const app = new Koa({ proxy: false });
  // Errors after the response has started (a client closing a streamed download) reach only this listener.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    deps.logger.warn({ err: error }, 'error after the response started');
  });
  const router = new Router();

  app.use(requestLogAndErrors(deps));
  for (const route of publicRoutes) route(router);
  for (const service of services) {
    for (const operation of service.operations) mount(router, service, operation, deps);
  }
  app.use(router.routes());
  app.use((ctx) => {
    const matched = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
    if (allowed.length > 0) throw problems.methodNotAllowed(allowed);
    throw problems.routeNotFound(ctx.method, ctx.path);
  });
  return app;
}

function mount(router: Router, service: ServiceDefinition, operation: Operation, deps: AppDeps): void {
  const authenticators = (service.authenticators ?? [apiKeyAuthenticator]).map((make) =>
    make(deps, service.name),
  );
  const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  const parseBody = bodyParser(operation, deps);
  const streamed = kindOf(operation) === 'octet-stream' || kindOf(operation) === 'multipart';
  router[method](operation.path, async (ctx) => {
    ctx.state.operationId = operation.operationId;
    ctx.state.service = service.name;
    ctx.state.route = operation.path;
    try {
      await handle(ctx);
    } catch (error) {
      // A streamed body refused before its handler ran is drained (up to a cap), so the client can read the answer.
      if (streamed) drainRefusedBody(ctx.req);
      throw error;
    }
  });

  async function handle(ctx: Koa.Context): Promise<void> {
    const principal = await authenticateRequest(ctx, service, deps, authenticators);
    ctx.state.principal = principal;
    await enforceRateLimit(ctx, principal, deps);
    authorize(principal, operation);

    const idempotencyKey = readIdempotencyKey(ctx, operation);
    const params = operation.request.params
      ? validatePart('params', operation.request.params, ctx.params)
      : {};
    const query = requestQuery(operation, ctx);
    const headers = operation.request.headers ? validateHeaders(operation.request.headers, ctx.headers) : {};
    await parseBody(ctx);
    if (principal.assertion) await confirmBodyOfAssertion(ctx, service, operation, deps, principal);
    const rawBody = (ctx.request as unknown as { body?: unknown }).body;
    const body = operation.request.body ? validatePart('body', operation.request.body, rawBody) : undefined;

    // Started before the claim and awaited after it: its reads and the claim share one round trip's time.
    const prepared = operation.prepare?.({ params, query, body, headers, principal, deps });
    // Awaited in `execute`; until then (and when a replay or a refused claim answers instead) it must not go unhandled.
    prepared?.catch(() => undefined);
    const key = principal.key;
    // The claim of a key, fingerprinted by what identifies the request: its body, or for a streamed body what the
    // handler names once it has read it (`idempotent`).
    const claimKey = (
      identity: unknown,
      work: (transaction: ReceiptTransaction) => Promise<OperationResponse>,
    ) =>
      runIdempotently(
        deps,
        {
          service: service.name,
          memberId: principal.member.id,
          key: idempotencyKey as string,
          operationId: operation.operationId,
          fingerprint: requestFingerprint(operation.method, ctx.path, identity, credentialScope(principal)),
          defaultStatus: operation.response.status,
        },
        work,
        {
          onReplay: operation.idempotentReplay,
          writeRequest: key
            ? {
                keyId: key.id,
                method: ctx.method,
                path: ctx.path,
                recorded: () => (ctx.state.writeRequestRecorded = true),
              }
            : undefined,
        },
      );
    const execute = async (transaction: ReceiptTransaction) => {
      const response = await operation.handler({
        params,
        query,
        body,
        headers,
        principal,
        idempotencyKey,
        deps,
        http: exchangeOf(ctx),
        transaction,
        idempotent: streamed
          ? (identity, store) => (idempotencyKey ? claimKey(identity, store) : store(transaction))
          : claimedBeforeHandler,
        prepared: await prepared,
      });
      // Before a receipt stored after the handler (and its key event): an answer that fails its schema is not kept.
      validateResponse(deps, operation, response);
      return response;
    };
    const response =
      idempotencyKey && !streamed
        ? await claimKey(body, execute)
        : await execute(plainTransaction(deps.dataSource));
    if (response.headers?.[IDEMPOTENT_REPLAYED] === 'true') {
      deps.metrics.idempotentReplay(service.name, operation.operationId);
      validateResponse(deps, operation, response);
    }

    ctx.status = response.status ?? operation.response.status;
    for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
    if (response.body !== undefined) ctx.body = response.body;
  }
}

/** `idempotent` of an operation whose body the kernel read: its key was claimed before its handler ran. */
function claimedBeforeHandler(): never {
  throw new Error('only a streamed-body operation claims its Idempotency-Key from its handler');
}

/** In tests (`validateResponses`), a documented status whose body does not match its schema is a 500. */
function validateResponse(deps: AppDeps, operation: Operation, response: OperationResponse): void {
  const status = response.status ?? operation.response.status;
  if (!deps.validateResponses || !operation.response.schema || status !== operation.response.status) return;
  const { error } = operation.response.schema.validate(response.body, { abortEarly: false });
  if (error) {
    deps.logger.error(
      { operationId: operation.operationId, error: error.message },
      'response does not match its schema',
    );
    throw problems.internal();
  }
}

const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

function drainRefusedBody(request: Koa.Context['req']): void {
  if (request.complete || request.destroyed) return;
  let seen = 0;
  request.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_LIMIT_BYTES) request.destroy();
  });
  request.on('error', () => undefined);
  request.resume();
}

const kindOf = (operation: Operation) =>
  operation.request.bodyKind ?? (operation.request.body ? 'json' : 'none');

/** The narrow view of the exchange a streaming handler gets (no header reads beyond its declaration). */
function exchangeOf(ctx: Koa.Context): HttpExchange {
  return {
    path: ctx.path,
    body: ctx.req,
    mediaType: ctx.request.type,
    contentType: ctx.get('content-type'),
    contentLength: ctx.get('content-length'),
    chunked: /\bchunked\b/i.test(ctx.get('transfer-encoding')),
    response: ctx.res,
  };
}

/** Operations without query parameters still refuse unknown ones, so a typo is not silently ignored. */
const noQueryParameters = Joi.object({});

/** The request's query string validated against the operation's schema (an operation without one takes none). */
const requestQuery = (operation: Operation, ctx: Koa.Context) =>
  validateQuery(
    operation.operationId,
    operation.request.query ?? noQueryParameters,
    ctx.querystring,
    ctx.query,
  );

async function authenticateRequest(
  ctx: Koa.Context,
  service: ServiceDefinition,
  deps: AppDeps,
  authenticators: Authenticator[],
): Promise<Principal> {
  try {
    const authorization = ctx.get('authorization') || undefined;
    const session = authorization
      ? null
      : soleCookie(ctx.get('cookie'), consoleCookieName(deps.config, SESSION_COOKIE));
    if (session?.duplicate) throw refuseSession('duplicate_cookie');
    if (session?.value) return await authenticateSessionRequest(ctx, service, deps, session.value);
    const principal = await authenticate(authenticators, authorization, {
      method: ctx.method,
      target: ctx.originalUrl,
    });
    if (principal.key) deps.lastUsed.record(principal.key.id);
    return principal;
  } catch (error) {
    if (error instanceof AuthenticationError) {
      recordAuthFailure(deps, service, ctx, error);
      throw authFailureProblem(error);
    }
    throw error;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request with the console's session cookie (and no Authorization header). A state-changing one must come
 * from the console's own origin and carry the session's CSRF token: a cross-site page's request is refused (403).
 */
async function authenticateSessionRequest(
  ctx: Koa.Context,
  service: ServiceDefinition,
  deps: AppDeps,
  secret: string,
): Promise<Principal> {
  const principal = await authenticateConsoleSession(deps, service.name, secret);
  if (
    !SAFE_METHODS.has(ctx.method) &&
    !sameOriginWrite(secret, {
      origin: ctx.get('origin') || undefined,
      csrfToken: ctx.get(CSRF_HEADER) || undefined,
      expectedOrigin: consoleOrigin(deps.config, ctx),
    })
  ) {
    deps.metrics.authenticationFailed(service.name, 'cross_site_request');
    deps.authFailures.record({
      service: service.name,
      kind: 'authentication_failed',
      reason: 'cross_site_request',
      memberId: principal.member.id,
      keyId: null,
      method: ctx.method,
      route: routeOf(ctx),
      source: sourceAddress(ctx.req.socket.remoteAddress),
      why: `session ${principal.session?.id}`,
    });
    throw problems.forbidden(
      'A request with the console session must come from the console (same Origin and its CSRF token).',
    );
  }
  return principal;
}

/** SHA-256 (lowercase hex) of a raw request body; an absent body hashes as the empty string. */
const bodySha256 = (raw: string): string => createHash('sha256').update(raw).digest('hex');

/** A dashboard assertion is bound to one body: only JSON and empty bodies can be checked before the handler. */
async function confirmBodyOfAssertion(
  ctx: Koa.Context,
  service: ServiceDefinition,
  operation: Operation,
  deps: AppDeps,
  principal: Principal,
): Promise<void> {
  const kind = operation.request.bodyKind ?? (operation.request.body ? 'json' : 'none');
  const rawJson = (ctx.request as unknown as { rawBody?: string }).rawBody ?? '';
  // Streamed bodies (octet-stream, multipart) are read by the handler, too late to check: never a match.
  const digest = kind === 'json' ? bodySha256(rawJson) : kind === 'none' ? bodySha256('') : 'streamed';
  try {
    confirmAssertionBody(principal, digest);
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    ctx.state.principal = undefined;
    recordAuthFailure(deps, service, ctx, error);
    throw authFailureProblem(error);
  }
}

/**
 * Counts a refused credential for the identity audit (authFailureAudit.ts): nothing is written per request, so a
 * flood of bad credentials neither slows the API nor buries the audit's real records.
 */
function recordAuthFailure(
  deps: AppDeps,
  service: ServiceDefinition,
  ctx: Koa.Context,
  failure: AuthenticationError,
): void {
  deps.metrics.authenticationFailed(service.name, failure.reason);
  if (failure.reason === 'missing') return;
  deps.authFailures.record({
    service: service.name,
    kind: 'authentication_failed',
    reason: failure.reason,
    memberId: failure.context.memberId ?? null,
    keyId: failure.keyId,
    method: ctx.method,
    route: routeOf(ctx),
    source: sourceAddress(ctx.req.socket.remoteAddress),
    jti: failure.context.jti,
    why: failure.context.why,
  });
}

/** The route template a request matched (the operation's path), never the path the caller sent. */
const routeOf = (ctx: Koa.Context): string => (ctx.state.route as string | undefined) ?? 'unmatched';

/** Counts the request against its key's budget (the member's, for a dashboard assertion); 429 past it. */
async function enforceRateLimit(ctx: Koa.Context, principal: Principal, deps: AppDeps): Promise<void> {
  const limiter = deps.rateLimiter;
  if (!limiter?.enabled) return;
  const subject = principal.key ? `key:${principal.key.id}` : `member:${principal.member.id}`;
  const decision = await limiter.take(subject);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    deps.metrics.rateLimitRefused(principal.service, 'request_rate');
    throw problems.tooManyRequests(
      `This API key exceeded its request rate limit of ${limiter.policy.perSecond} per second ` +
        `(bursts up to ${limiter.policy.burst}); retry after ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
      headers,
    );
  }
  ctx.set(headers);
}

function authorize(principal: Principal, operation: Operation): void {
  if (!atLeast(principal.role, operation.minRole)) throw problems.insufficientRole(operation.minRole);
  const missing = missingScopes(principal.scopes, operation.scopes);
  if (missing.length > 0) throw problems.insufficientScope(missing);
}

function readIdempotencyKey(ctx: Koa.Context, operation: Operation): string | null {
  if (operation.idempotency === 'none') return null;
  const header = ctx.get('idempotency-key');
  if (!header) {
    if (operation.idempotency === 'required') {
      throw problems.badRequest(
        'idempotency_key_required',
        'This operation requires an Idempotency-Key header.',
      );
    }
    return null;
  }
  const { error } = idempotencyKeySchema.validate(header);
  if (error) throw problems.validation([{ path: 'headers.idempotency-key', message: error.message }]);
  return header;
}

/** Reads the body the operation declares, with the content type it declares; anything else is a 4xx. */
function bodyParser(operation: Operation, deps: AppDeps): (ctx: Koa.Context) => Promise<void> {
  const kind = kindOf(operation);
  if (kind === 'json') {
    const limit = Math.max(deps.config.jsonBodyLimitBytes, operation.request.minJsonBodyLimitBytes ?? 0);
    const parse = koaBody({
      json: true,
      jsonStrict: true,
      jsonLimit: limit,
      urlencoded: false,
      text: false,
      multipart: false,
      includeUnparsed: true,
    });
    return async (ctx) => {
      if (!ctx.is('application/json')) throw problems.unsupportedMediaType('application/json');
      // JSON is UTF-8 (RFC 8259); koa-body would decode any declared charset as UTF-8 regardless.
      const charset = ctx.request.charset.toLowerCase();
      if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
        throw problems.unsupportedMediaType('application/json in UTF-8');
      }
      try {
        await parse(ctx, async () => undefined);
      } catch (error) {
        throw bodyReadProblem(error);
      }
      assertSafeJson((ctx.request as unknown as { body?: unknown }).body);
    };
  }
  if (kind === 'none') {
    return async (ctx) => {
      const length = Number(ctx.get('content-length') || 0);
      if (length > 0 || ctx.get('transfer-encoding')) {
        throw problems.badRequest('unexpected_body', 'This operation takes no request body.');
      }
    };
  }
  // octet-stream and multipart bodies are streamed by their handlers.
  return async () => undefined;
}

/** Outermost middleware: request id, one log line per request, and every error as problem+json. */
function requestLogAndErrors(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const ended = deps.metrics.requestStarted();
    const requestId = randomUUID();
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500 && apiError.code === 'internal_error') {
        deps.logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      } else if (apiError.status === 503 && !(error instanceof ApiError)) {
        deps.logger.warn({ err: error, requestId, method: ctx.method, path: ctx.path }, 'dependency down');
      }
      ctx.status = apiError.status;
      for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
      ctx.body = apiError.toProblem(ctx.path);
      ctx.type = PROBLEM_JSON;
    } finally {
      const principal = ctx.state.principal as Principal | undefined;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      ended({
        service: (ctx.state.service as string | undefined) ?? 'none',
        operation: operationLabel(ctx),
        method: ctx.method,
        status: ctx.status,
        seconds,
      });
      deps.logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          operationId: ctx.state.operationId as string | undefined,
          keyId: principal?.key?.id,
          assertionJti: principal?.assertion?.jti,
          ms: seconds * 1000,
        },
        'request',
      );
      // A receipt stored after a workflow action carries the request's key event already (idempotency.ts).
      if (principal?.key && ctx.method !== 'GET' && ctx.method !== 'HEAD' && !ctx.state.writeRequestRecorded)
        await recordWriteRequest(deps, principal.key.id, ctx);
    }
  };
}

/**
 * The operation a request counts under in the metrics: its operation id, the route template of a public route
 * (`/docs/assets/:file`), or `unmatched` (404, 405): never the raw path, so the label stays bounded.
 */
function operationLabel(ctx: Koa.Context): string {
  const operationId = ctx.state.operationId as string | undefined;
  if (operationId) return operationId;
  const route = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
  return typeof route === 'string' ? route : 'unmatched';
}

async function recordWriteRequest(deps: AppDeps, keyId: string, ctx: Koa.Context): Promise<void> {
  await insertWriteRequest(deps.dataSource, {
    keyId,
    method: ctx.method,
    path: ctx.path,
    status: ctx.status,
  }).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not record a key event'));
}
