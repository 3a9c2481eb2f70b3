import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { PublicRoute } from '../kernel/app';
import { problems } from '../kernel/errors';

/**
 * The reviewer console's page: no inline script or style, no eval, scripts and styles from this origin only,
 * requests to this origin only, images from this origin or the blob: URLs of previewed files, and the DOM's
 * HTML-injection sinks closed by Trusted Types (the console renders Markdown as elements, never as HTML).
 */
export const CONSOLE_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Hashed asset names change with their content, so a browser may keep them for a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

interface BuiltAsset {
  type: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

interface ConsoleBuild {
  index: Buffer;
  indexEtag: string;
  assets: Map<string, BuiltAsset>;
}

interface Manifest {
  script: string;
  stylesheet: string;
  assets: Record<string, { type: string }>;
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** Where `console/build.js` writes: `dist/console` beside the sources, or `console/` beside a compiled dist/server.js. */
export function defaultConsoleDir(serverDir: string): string {
  return basename(serverDir) === 'dist' ? join(serverDir, 'console') : join(serverDir, 'dist', 'console');
}

function readBuild(dir: string): ConsoleBuild {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const assets = new Map<string, BuiltAsset>();
  for (const [name, meta] of Object.entries(manifest.assets)) {
    const file = join(dir, 'assets', name);
    const identity = readFileSync(file);
    assets.set(name, {
      type: meta.type,
      identity,
      gzip: readFileSync(`${file}.gz`),
      brotli: readFileSync(`${file}.br`),
      etag: etagOf(identity),
    });
  }
  const index = readFileSync(join(dir, 'index.html'));
  return { index, indexEtag: etagOf(index), assets };
}

/**
 * Serves the built console (`console/build.js` writes it; this process never builds): `/console` and every
 * path below it answer the same page, which routes in the browser; `/console/assets/<name>-<hash>.<ext>` are
 * the hashed bundles, sent precompressed (brotli or gzip) when the browser accepts it. Without a build, the
 * console's paths answer 503 naming the command that builds it.
 */
export function consoleRoutes(dir: string): PublicRoute {
  let build: ConsoleBuild | null = null;
  const loaded = (): ConsoleBuild => {
    if (build) return build;
    try {
      build = readBuild(dir);
      return build;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw problems.unavailable('the console build (run npm run build:console)', 60);
      throw error;
    }
  };
  const page = (ctx: Koa.Context) => {
    const { index, indexEtag } = loaded();
    securityHeaders(ctx);
    ctx.set('Content-Security-Policy', CONSOLE_SECURITY_POLICY);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', indexEtag);
    if (ctx.get('if-none-match') === indexEtag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = index;
  };
  return (router: Router) => {
    router.get('/console/assets/:file', (ctx) => {
      const asset = loaded().assets.get(ctx.params.file);
      if (!asset) throw problems.routeNotFound(ctx.method, ctx.path);
      securityHeaders(ctx);
      ctx.set('Cache-Control', ASSET_CACHE);
      ctx.set('ETag', asset.etag);
      ctx.set('Vary', 'Accept-Encoding');
      if (ctx.get('if-none-match') === asset.etag) {
        ctx.status = 304;
        return;
      }
      const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
      ctx.type = asset.type;
      if (encoding === 'br') {
        ctx.set('Content-Encoding', 'br');
        ctx.body = asset.brotli;
      } else if (encoding === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = asset.gzip;
      } else ctx.body = asset.identity;
    });
    router.get('/console', page);
    router.get('/console/{*rest}', page);
  };
}

function securityHeaders(ctx: Koa.Context): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
}
