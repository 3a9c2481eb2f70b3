import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { ASSERTION_AUDIENCE, ASSERTION_TYPE } from '../../api/genomics/dashboardAssertion/verifier';
import { createLogger } from '../../logging/logger';
import type { Config } from '../../config';
import type { Role, Scope, ServiceName } from '../../entities/types';
import { type RunningServer, startServer } from '../../server';
import { http, type HttpResult, type TestStack } from './stack';

/** A second (third, …) API process on the same database, as in a horizontally scaled deployment. */
export async function startExtraServer(
  stack: TestStack,
  overrides: Partial<Config> = {},
  logger?: ReturnType<typeof createLogger>,
): Promise<RunningServer> {
  return startServer({ ...stack.config, ...overrides }, { validateResponses: true, logger });
}

/** `http()` against a particular API process of the stack. */
export function httpVia<T = any>(
  server: RunningServer,
  stack: TestStack,
  method: string,
  path: string,
  opts: Parameters<typeof http>[3] = {},
): Promise<HttpResult<T>> {
  return http<T>({ ...stack, url: server.url }, method, path, opts);
}

/** Log lines written by a server, kept in memory so a test can search them. */
export function capturedLogger(level = 'trace') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger(level, destination), lines };
}

/** Inserts keys straight into the table (no usable secret) to bring a member near a limit quickly. */
export async function insertBulkKeys(
  stack: TestStack,
  service: ServiceName,
  memberId: string,
  count: number,
  state: 'active' | 'revoked' | 'expired' = 'active',
): Promise<void> {
  await stack.dataSource.query(
    `INSERT INTO api_keys (id, service, member_id, name, role, scopes, secret_hash, expires_at, revoked_at, created_at)
     SELECT gen_random_uuid(), $1, $2, 'bulk ' || g, 'REVIEWER', ARRAY['read'], '\\x00'::bytea,
            CASE WHEN $4 = 'expired' THEN now() - interval '1 hour' ELSE now() + interval '30 days' END,
            CASE WHEN $4 = 'revoked' THEN now() ELSE NULL END,
            now() - interval '1 day' - g * interval '1 second'
       FROM generate_series(1, $3) AS g`,
    [service, memberId, count, state],
  );
}

export const idempotencyKey = (label = 'key'): string => `${label}-${randomBytes(12).toString('hex')}`;

export const sha256Hex = (body: string): string => createHash('sha256').update(body).digest('hex');

/** An Ed25519 key pair for dashboard assertions: the PEM public key configures the API. */
export function assertionKeyPair(): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export interface AssertionRequest {
  method: string;
  /** Path with query string, exactly as sent. */
  path: string;
  /** The exact body text to be sent ('' for none). */
  body?: string;
}

export interface AssertionOptions {
  sub: string;
  role: Role;
  scopes: Scope[];
  jti?: string;
  /** Seconds since the epoch. */
  iat?: number;
  lifetimeSeconds?: number;
  typ?: string;
  aud?: string;
  extraClaims?: Record<string, unknown>;
}

/** Signs a dashboard assertion for one request, the way the dashboard does (docs/dashboard-assertion.md). */
export async function signAssertion(
  privateKey: KeyObject | Uint8Array,
  request: AssertionRequest,
  options: AssertionOptions,
): Promise<string> {
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({
    method: request.method,
    path: request.path,
    body_sha256: sha256Hex(request.body ?? ''),
    role: options.role,
    scopes: options.scopes,
    ...options.extraClaims,
  })
    .setProtectedHeader({
      alg: privateKey instanceof Uint8Array ? 'HS256' : 'EdDSA',
      typ: options.typ ?? ASSERTION_TYPE,
    })
    .setSubject(options.sub)
    .setAudience(options.aud ?? ASSERTION_AUDIENCE)
    .setJti(options.jti ?? `jti-${randomBytes(12).toString('hex')}`)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetimeSeconds ?? 30))
    .sign(privateKey);
}
