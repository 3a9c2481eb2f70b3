import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { ServiceName } from '../../entities/types';
import type { PublicRoute } from '../kernel/app';
import { problems, problemTypeDocs } from '../kernel/errors';
import { buildOpenApi } from '../kernel/openapi';
import type { ServiceDefinition } from '../kernel/operation';
import { type ContractLink, DOCS_CSS, DOCS_SCRIPT, problemsPage, referencePage } from './page';

/** Where each service publishes its contract. */
export const CONTRACT_PATHS: Record<ServiceName, string> = {
  math: '/api/openapi.json',
  genomics: '/api/v1/openapi.json',
};

/** The renderer's files, served from the installed package (no CDN). */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI (React) sets style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface StaticResource {
  body: string | Buffer;
  type: string;
  etag: string;
}

const resource = (body: string | Buffer, type: string): StaticResource => ({
  body,
  type,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/**
 * Unauthenticated routes: each service's OpenAPI document (built once, here, at start-up), the reference
 * page at `/docs` that renders them, its assets, and the error-type page `/docs/problems`.
 */
export function docsRoutes(
  services: ServiceDefinition[],
  options: { onUnsupported?: (at: string, what: string) => void } = {},
): PublicRoute {
  const contracts = services.map((service) => ({
    service,
    path: CONTRACT_PATHS[service.name],
    document: resource(JSON.stringify(buildOpenApi(service, options)), 'application/json; charset=utf-8'),
  }));
  const links: ContractLink[] = contracts.map((c) => ({
    id: c.service.name,
    title: c.service.title,
    url: c.path,
  }));
  const pages = {
    reference: resource(referencePage(links), 'text/html; charset=utf-8'),
    problems: resource(
      problemsPage(problemTypeDocs(services.map((service) => service.problemTypes))),
      'text/html; charset=utf-8',
    ),
  };
  const ownAssets: Record<string, StaticResource> = {
    'docs.js': resource(DOCS_SCRIPT, 'application/javascript; charset=utf-8'),
    'docs.css': resource(DOCS_CSS, 'text/css; charset=utf-8'),
  };
  const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const packageAssets = new Map<string, Promise<StaticResource>>();
  const packageAsset = (file: string) => {
    let loaded = packageAssets.get(file);
    if (!loaded) {
      loaded = readFile(join(swaggerUiDir, file)).then((bytes) => resource(bytes, SWAGGER_UI_FILES[file]));
      loaded.catch(() => packageAssets.delete(file));
      packageAssets.set(file, loaded);
    }
    return loaded;
  };

  return (router: Router) => {
    for (const contract of contracts) {
      router.get(contract.path, (ctx) => send(ctx, contract.document, 'no-cache'));
    }
    // The root has no API of its own: a browser opening the base URL lands on the reference.
    router.get('/', (ctx) => {
      ctx.redirect('/docs');
    });
    router.get('/docs', (ctx) => {
      ctx.set('Content-Security-Policy', PAGE_SECURITY_POLICY);
      send(ctx, pages.reference, 'no-cache');
    });
    router.get('/docs/problems', (ctx) => {
      ctx.set('Content-Security-Policy', PAGE_SECURITY_POLICY);
      send(ctx, pages.problems, 'no-cache');
    });
    router.get('/docs/assets/:file', async (ctx) => {
      const file = ctx.params.file;
      if (Object.hasOwn(ownAssets, file)) return send(ctx, ownAssets[file], 'no-cache');
      if (!Object.hasOwn(SWAGGER_UI_FILES, file)) throw problems.routeNotFound(ctx.method, ctx.path);
      send(ctx, await packageAsset(file), 'public, max-age=86400');
    });
  };
}

function send(ctx: Koa.Context, resource: StaticResource, cacheControl: string): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', resource.etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.get('if-none-match') === resource.etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = resource.type;
  ctx.body = resource.body;
}
