import type Router from '@koa/router';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { checkProvisioningToken, recordProvisioningRequest } from '../../access/provisioningTokens';
import { bearerToken } from '../../access/credentials';
import type { PublicRoute } from '../kernel/app';
import type { AppDeps } from '../kernel/deps';
import { isPostgresUnavailable, toApiError } from '../kernel/errorTranslation';
import { assertSafeJson } from '../kernel/jsonBody';
import { rateLimitHeaders } from '../kernel/rateLimit';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery';
import { ScimError, scimErrors } from './errors';
import { createGroup, deleteGroup, listGroups, patchGroup, readGroup, replaceGroup } from './groups';
import type { ScimRequest, ScimResponse } from './http';
import { scimOpenApi } from './openapi';
import { createUser, deleteUser, listUsers, patchUser, readUser, replaceUser } from './users';

/** Where the SCIM 2.0 service provider answers (docs/provisioning.md). */
export const SCIM_BASE = '/scim/v2';
export const SCIM_CONTRACT_PATH = `${SCIM_BASE}/openapi.json`;
const SCIM_JSON = 'application/scim+json; charset=utf-8';
/** Far above a User or a Group PATCH of a thousand members; ServiceProviderConfig states it. */
export const SCIM_BODY_LIMIT_BYTES = 1024 * 1024;

type Handler = (request: ScimRequest) => Promise<ScimResponse> | ScimResponse;

/** The query parameters each kind of endpoint reads; any other is refused (a typo is never ignored). */
const LIST_QUERY = ['filter', 'startIndex', 'count', 'attributes', 'excludedAttributes'];
const RESOURCE_QUERY = ['attributes', 'excludedAttributes'];

interface Endpoint {
  path: string;
  methods: Partial<
    Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', { name: string; handler: Handler; query: string[] }>
  >;
}

const limits = { maxPayloadSize: SCIM_BODY_LIMIT_BYTES };

const ENDPOINTS: Endpoint[] = [
  {
    path: '/ServiceProviderConfig',
    methods: {
      GET: { name: 'serviceProviderConfig', handler: (r) => serviceProviderConfig(r, limits), query: [] },
    },
  },
  { path: '/ResourceTypes', methods: { GET: { name: 'resourceTypes', handler: resourceTypes, query: [] } } },
  {
    path: '/ResourceTypes/:name',
    methods: { GET: { name: 'resourceType', handler: resourceTypes, query: [] } },
  },
  { path: '/Schemas', methods: { GET: { name: 'schemas', handler: schemas, query: [] } } },
  { path: '/Schemas/:id', methods: { GET: { name: 'schema', handler: schemas, query: [] } } },
  {
    path: '/Users',
    methods: {
      GET: { name: 'listUsers', handler: listUsers, query: LIST_QUERY },
      POST: { name: 'createUser', handler: createUser, query: RESOURCE_QUERY },
    },
  },
  {
    path: '/Users/:id',
    methods: {
      GET: { name: 'readUser', handler: readUser, query: RESOURCE_QUERY },
      PUT: { name: 'replaceUser', handler: replaceUser, query: RESOURCE_QUERY },
      PATCH: { name: 'patchUser', handler: patchUser, query: RESOURCE_QUERY },
      DELETE: { name: 'deleteUser', handler: deleteUser, query: [] },
    },
  },
  {
    path: '/Groups',
    methods: {
      GET: { name: 'listGroups', handler: listGroups, query: LIST_QUERY },
      POST: { name: 'createGroup', handler: createGroup, query: RESOURCE_QUERY },
    },
  },
  {
    path: '/Groups/:id',
    methods: {
      GET: { name: 'readGroup', handler: readGroup, query: RESOURCE_QUERY },
      PUT: { name: 'replaceGroup', handler: replaceGroup, query: RESOURCE_QUERY },
      PATCH: { name: 'patchGroup', handler: patchGroup, query: RESOURCE_QUERY },
      DELETE: { name: 'deleteGroup', handler: deleteGroup, query: [] },
    },
  },
];

/** Any error as SCIM's error schema: ours as thrown, the kernel's (body reading) with its status, else a 500/503. */
function toScimError(error: unknown, deps: AppDeps, ctx: Koa.Context): ScimError {
  if (error instanceof ScimError) return error;
  if (isPostgresUnavailable(error)) {
    deps.logger.warn({ err: error, path: ctx.path }, 'SCIM request: dependency down');
    return scimErrors.unavailable();
  }
  const api = toApiError(error);
  if (api.status >= 500) {
    deps.logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled SCIM error');
    return scimErrors.internal();
  }
  if (api.status === 413) return scimErrors.tooLarge(SCIM_BODY_LIMIT_BYTES);
  return new ScimError(api.status, api.detail, api.status === 400 ? 'invalidSyntax' : undefined, api.headers);
}

/**
 * The SCIM 2.0 service provider under `/scim/v2` (RFC 7643, RFC 7644): its own router path, credential and
 * error schema. Only a provisioning token (`referee scim-tokens create`) is accepted: an API key or a console
 * session never reaches it, and a provisioning token reaches nothing else. Every request is rate-limited per
 * token and recorded in the SCIM audit (`scim_audit`), refused ones included.
 */
export function scimRoutes(deps: AppDeps): PublicRoute {
  const parseJson = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: SCIM_BODY_LIMIT_BYTES,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonTypes: ['application/json', 'application/scim+json'],
  });
  const contract = JSON.stringify(scimOpenApi());

  const serve = (endpoint: Endpoint) => async (ctx: Koa.Context) => {
    const method = ctx.method as keyof Endpoint['methods'];
    const declared = endpoint.methods[method];
    ctx.state.service = 'scim';
    ctx.state.operationId = declared ? `scim.${declared.name}` : undefined;
    const audit: Record<string, unknown> = {};
    let tokenId: string | null = null;
    try {
      const check = await checkProvisioningToken(
        deps.dataSource,
        bearerToken(ctx.get('authorization') || undefined),
      );
      if (!check.ok) {
        tokenId = check.tokenId;
        audit.refused = check.reason;
        deps.metrics.authenticationFailed('scim', check.reason);
        throw scimErrors.unauthorized(
          check.reason === 'revoked'
            ? 'The provisioning token has been revoked.'
            : 'Send a provisioning token (referee scim-tokens create) as "Authorization: Bearer <token>".',
        );
      }
      tokenId = check.token.id;
      await enforceRateLimit(ctx, deps, tokenId);
      if (!declared) throw scimErrors.methodNotAllowed(Object.keys(endpoint.methods));
      const unknown = Object.keys(ctx.query).filter((k) => !declared.query.includes(k));
      if (unknown.length > 0)
        throw scimErrors.badRequest('invalidValue', `Unknown query parameter ${unknown.join(', ')}.`);
      const query = Object.fromEntries(
        Object.entries(ctx.query).map(([k, v]) => {
          if (Array.isArray(v)) throw scimErrors.badRequest('invalidValue', `${k} is given more than once.`);
          return [k, v];
        }),
      );
      const body =
        method === 'POST' || method === 'PUT' || method === 'PATCH' ? await readBody(ctx) : undefined;
      const response = await declared.handler({
        dataSource: deps.dataSource,
        params: ctx.params as Record<string, string>,
        query,
        body,
        headers: {
          ifMatch: ctx.get('if-match') || undefined,
          ifNoneMatch: ctx.get('if-none-match') || undefined,
        },
        // Koa's ctx.origin is the Origin request header; the request's own origin is protocol and host.
        baseUrl: `${deps.config.oidc ? new URL(deps.config.oidc.redirectUrl).origin : `${ctx.protocol}://${ctx.host}`}${SCIM_BASE}`,
        tokenId,
        audit,
      });
      ctx.status = response.status;
      if (response.etag) ctx.set('ETag', response.etag);
      if (response.location && response.status === 201) ctx.set('Location', response.location);
      if (response.body !== undefined) {
        ctx.body = JSON.stringify(response.body);
        ctx.type = SCIM_JSON;
      }
    } catch (error) {
      const refusal = toScimError(error, deps, ctx);
      if (refusal.scimType) audit.scim_type = refusal.scimType;
      ctx.status = refusal.status;
      ctx.set(refusal.headers);
      ctx.body = JSON.stringify(refusal.toBody());
      ctx.type = SCIM_JSON;
    } finally {
      ctx.set('Cache-Control', 'no-store');
      await recordProvisioningRequest(deps.dataSource, {
        tokenId,
        method: ctx.method,
        path: ctx.path.slice(0, 500),
        status: ctx.status,
        detail: audit,
      }).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not record a SCIM request'));
    }
  };

  async function readBody(ctx: Koa.Context): Promise<unknown> {
    if (!ctx.is('application/scim+json', 'application/json')) throw scimErrors.unsupportedMediaType();
    const charset = ctx.request.charset.toLowerCase();
    if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') throw scimErrors.unsupportedMediaType();
    try {
      await parseJson(ctx, async () => undefined);
    } catch (error) {
      if (error instanceof SyntaxError)
        throw scimErrors.badRequest('invalidSyntax', 'The body is not valid JSON.');
      throw error;
    }
    const body = (ctx.request as unknown as { body?: unknown }).body;
    assertSafeJson(body);
    return body;
  }

  return (router: Router) => {
    router.get(SCIM_CONTRACT_PATH, (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = contract;
    });
    for (const endpoint of ENDPOINTS) router.all(`${SCIM_BASE}${endpoint.path}`, serve(endpoint));
    const unknownPath = serve({ path: '', methods: {} });
    router.all(SCIM_BASE, unknownPath);
    router.all(`${SCIM_BASE}/{*rest}`, async (ctx) => {
      await unknownPath(ctx);
      if (ctx.status === 405) {
        ctx.status = 404;
        ctx.remove('Allow');
        ctx.body = JSON.stringify(
          scimErrors.notFound(`${SCIM_BASE} has no ${ctx.path.slice(SCIM_BASE.length)}.`).toBody(),
        );
      }
    });
  };
}

/** The provisioning token's request budget, with the same policy and headers as an API key's (docs/limits.md). */
async function enforceRateLimit(ctx: Koa.Context, deps: AppDeps, tokenId: string): Promise<void> {
  const limiter = deps.rateLimiter;
  if (!limiter?.enabled) return;
  const decision = await limiter.take(`scim:${tokenId}`);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    deps.metrics.rateLimitRefused('scim', 'request_rate');
    throw scimErrors.tooManyRequests(
      `This provisioning token exceeded its request rate limit of ${limiter.policy.perSecond} per second; ` +
        `retry after ${decision.retryAfterSeconds} s.`,
      decision.retryAfterSeconds,
      headers,
    );
  }
  ctx.set(headers);
}
